//! `npuzzle play`: the terminal game. The board is drawn with ratatui; after every move the
//! answer layer gives the exact distance in `--metric` (from the table, or a search within
//! `--limit` on boards without one; a search that gives up shows a lower bound, labelled so).
//! Beyond 5x5 (`--board 10x10`) the position is a [`LargeState`]: no distance is shown (none
//! is in reach), shuffles are uniformly random states, and the hint is the constructive
//! solver's next move, labelled not optimal.
//!
//! Keys: arrows or `h j k l` move the blank (U D L R, the names the command line uses: the
//! up arrow moves the blank up); `?` or `H` a hint (an optimal next move: one cell under STM,
//! one slide under MTM); `u` undo; `s` shuffle to an exact depth (`+`/`-` change it); `r`
//! back to the start; `q`, Esc or Ctrl-C quit. (`h` moves, as in vi: the issue's `h` for a
//! hint clashed with `hjkl`.) [`Game::key`] is the whole game's logic, a key in and the new
//! state and message out, so the tests below play it without a terminal.

use std::time::Duration;

use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::{DefaultTerminal, Frame};

use npuzzle::answer::{AnswerError, NoAnswer};
use npuzzle::large::{scramble_uniform, scramble_walk, solve_constructive, LargeBoard, LargeState};
use npuzzle::rng::SplitMix64;
use npuzzle::sample::{SampleError, SampleOptions};
use npuzzle::{moves_to_string, How, Limits, Method, Metric, Move, Oracle, State, BLANK_GLYPH};

use super::args::PlayArgs;
use super::input::{goal_or_default, shorten, start_and_goal};
use super::large::large_pair;
use super::limits::limits;
use super::{CommandResult, Context, Failure};

/// The per-move search limit on boards without a table when `--limit` is not given: short,
/// so that the game answers while one plays.
pub const DEFAULT_MOVE_LIMIT: Duration = Duration::from_secs(2);

/// What is shown as the distance of the position on the board.
#[derive(Debug)]
enum Shown {
    Exact {
        distance: u8,
        method: Method,
    },
    AtLeast {
        bound: u32,
        why: String,
    },
    Unsolvable(String),
    Failed(String),
    /// Beyond 5x5, away from the goal: no exact distance is in reach.
    NotComputed,
}

/// What a key asks of the game loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Go,
    Quit,
}

struct Game<'o> {
    oracle: &'o Oracle,
    how: How,
    start: LargeState,
    goal: LargeState,
    now: LargeState,
    history: Vec<LargeState>,
    shown: Shown,
    /// The hinted move (one cell, or a slide under MTM), until the next move.
    hint: Vec<Move>,
    message: String,
    depth: u8,
    rng: SplitMix64,
}

impl<'o> Game<'o> {
    /// A game from `start` (a shuffle where `None`) toward `goal`.
    fn new(
        oracle: &'o Oracle,
        how: How,
        start: Option<LargeState>,
        goal: LargeState,
        depth: u8,
        seed: u64,
    ) -> Game<'o> {
        let mut game = Game {
            oracle,
            how,
            start: start.clone().unwrap_or_else(|| goal.clone()),
            now: start.clone().unwrap_or_else(|| goal.clone()),
            goal,
            history: Vec::new(),
            shown: Shown::Failed(String::new()),
            hint: Vec::new(),
            message: String::new(),
            depth,
            rng: SplitMix64::new(seed),
        };
        if start.is_some() {
            game.refresh();
            game.message = "your start".into();
        } else {
            game.shuffle();
        }
        game
    }

    /// The position and the goal as small states, where the board has at most 25 cells.
    fn small(&self) -> Option<(State, State)> {
        Some((self.now.to_small()?, self.goal.to_small()?))
    }

    fn distance(&self) -> Shown {
        let Some((now, goal)) = self.small() else {
            return if self.now == self.goal {
                Shown::Exact {
                    distance: 0,
                    method: Method::Reasoning,
                }
            } else {
                Shown::NotComputed
            };
        };
        match self.oracle.distance(&now, &goal, self.how) {
            Ok(answer) => {
                let (value, cost) = answer.split();
                match value {
                    Ok(distance) => Shown::Exact {
                        distance,
                        method: cost.method,
                    },
                    Err(NoAnswer::GaveUp(limit)) => Shown::AtLeast {
                        bound: self.oracle.lower_bound(&now, &goal).unwrap_or(0),
                        why: format!(
                            "the search gave up at its {limit} after {} nodes",
                            cost.expanded
                        ),
                    },
                    Err(why) => Shown::Unsolvable(why.to_string()),
                }
            }
            Err(error) => Shown::Failed(error.to_string()),
        }
    }

    fn refresh(&mut self) {
        self.shown = self.distance();
        self.hint.clear();
    }

    /// What one key does; [`Flow::Quit`] ends the game.
    fn key(&mut self, code: KeyCode, modifiers: KeyModifiers) -> Flow {
        match code {
            KeyCode::Char('c') if modifiers.contains(KeyModifiers::CONTROL) => return Flow::Quit,
            KeyCode::Char('q') | KeyCode::Esc => return Flow::Quit,
            KeyCode::Up | KeyCode::Char('k') => self.step(Move::Up),
            KeyCode::Down | KeyCode::Char('j') => self.step(Move::Down),
            KeyCode::Left | KeyCode::Char('h') => self.step(Move::Left),
            KeyCode::Right | KeyCode::Char('l') => self.step(Move::Right),
            KeyCode::Char('?') | KeyCode::Char('H') => self.give_hint(),
            KeyCode::Char('u') => self.undo(),
            KeyCode::Char('s') => self.shuffle(),
            KeyCode::Char('r') => self.reset(),
            KeyCode::Char('+') | KeyCode::Char('=') => {
                self.depth = self.depth.saturating_add(1);
                self.message = format!("shuffle depth {}", self.depth);
            }
            KeyCode::Char('-') => {
                self.depth = self.depth.saturating_sub(1);
                self.message = format!("shuffle depth {}", self.depth);
            }
            _ => {}
        }
        Flow::Go
    }

    fn step(&mut self, mv: Move) {
        let before = self.now.clone();
        if self.now.step(mv) {
            self.history.push(before);
            self.message = format!("moved {}", mv.letter());
            self.refresh();
            if self.now == self.goal {
                self.message = format!("solved in {} moves!", self.history.len());
            }
        } else {
            self.message = format!("{}: the blank cannot leave the board", mv.letter());
        }
    }

    fn undo(&mut self) {
        match self.history.pop() {
            Some(before) => {
                self.now = before;
                self.message = "undone".into();
                self.refresh();
            }
            None => self.message = "nothing to undo".into(),
        }
    }

    /// The metric's name in a message: nothing under STM (the default).
    fn in_metric(&self) -> &'static str {
        match self.how.metric {
            Metric::Stm => "",
            Metric::Mtm => " in MTM",
        }
    }

    fn give_hint(&mut self) {
        let Some((now, goal)) = self.small() else {
            // Beyond 5x5: the constructive solver's next move, with no length guarantee.
            match solve_constructive(&self.now, &self.goal) {
                Ok(moves) if moves.is_empty() => self.message = "solved: no move needed".into(),
                Ok(moves) => {
                    self.hint = self.how.metric.first_move(&moves).to_vec();
                    self.message = format!(
                        "hint: {} (constructive solver, not optimal: {} moves{} left)",
                        moves_to_string(&self.hint),
                        self.how.metric.length(&moves),
                        self.in_metric()
                    );
                }
                Err(_) => self.message = "no hint: the goal cannot be reached".into(),
            }
            return;
        };
        match self.oracle.solve(&now, &goal, self.how) {
            Ok(answer) => match answer.value {
                Ok(solution) if solution.moves().is_empty() => {
                    self.message = "solved: no move needed".into()
                }
                Ok(solution) => {
                    self.hint = self.how.metric.first_move(solution.moves()).to_vec();
                    self.message = format!(
                        "hint: {} ({} moves{} left on an optimal path)",
                        moves_to_string(&self.hint),
                        self.how.metric.length(solution.moves()),
                        self.in_metric()
                    );
                }
                Err(NoAnswer::GaveUp(limit)) => {
                    self.message = format!("no hint: the search gave up at its {limit}")
                }
                Err(_) => self.message = "no hint: the goal cannot be reached".into(),
            },
            Err(error) => self.message = format!("no hint: {error}"),
        }
    }

    /// A new start: drawn uniformly at exactly `depth` where the board has a table, else a
    /// walk of `depth` random moves (never straight back) up to 5x5; beyond 5x5 a uniformly
    /// random state.
    fn shuffle(&mut self) {
        let drawn = match self.goal.to_small() {
            None => {
                self.message = "shuffled: a uniformly random state".into();
                Ok(scramble_uniform(&self.goal, &mut self.rng))
            }
            Some(goal) => self.shuffle_small(goal),
        };
        match drawn {
            Ok(start) => {
                self.start = start.clone();
                self.now = start;
                self.history.clear();
                self.refresh();
            }
            Err(why) => self.message = format!("cannot shuffle: {why}"),
        }
    }

    fn shuffle_small(&mut self, goal: State) -> Result<LargeState, String> {
        let options = SampleOptions {
            count: 1,
            depths: self.depth..=self.depth,
            unsolvable: 0,
        };
        let seed = self.rng.next_u64();
        match self.oracle.sample(&goal, &options, seed) {
            Ok(mut instances) => {
                let start = instances
                    .next()
                    .map(|i| LargeState::from_small(&i.start))
                    .ok_or_else(|| "no instance drawn".to_string())?;
                self.message = format!("shuffled to exact depth {}", self.depth);
                Ok(start)
            }
            Err(AnswerError::Sample(SampleError::DepthsNeedTable { .. })) => {
                self.message = format!(
                    "shuffled by {} random moves (exact depths need a table)",
                    self.depth
                );
                Ok(scramble_walk(
                    &self.goal,
                    usize::from(self.depth),
                    &mut self.rng,
                ))
            }
            Err(error) => Err(error.to_string()),
        }
    }

    fn reset(&mut self) {
        self.now = self.start.clone();
        self.history.clear();
        self.message = "back at the start".into();
        self.refresh();
    }

    /// The title line: the goal written out, or named where it is the default of a board
    /// beyond 5x5 (written out it would not fit a line).
    fn title(&self) -> String {
        let board = self.now.board();
        let goal = match self.goal.to_small() {
            Some(goal) => goal.to_string(),
            None if self.goal == LargeState::goal(board) => "tiles in order, blank last".into(),
            None => self.goal.to_string(),
        };
        format!("npuzzle play: {board}, goal {goal}")
    }

    /// The distance line under the board.
    fn distance_line(&self) -> String {
        match &self.shown {
            Shown::Exact { distance, method } => {
                let how = match method {
                    Method::Reasoning => "at the goal".to_string(),
                    method if method.is_table() => "exact, from the table".to_string(),
                    method => format!("exact, by {method}"),
                };
                let metric = match self.how.metric {
                    Metric::Stm => "",
                    Metric::Mtm => " MTM moves",
                };
                format!("Distance: {distance}{metric} ({how})")
            }
            Shown::AtLeast { bound, why } => {
                format!("Distance: at least {bound} (lower bound: {why})")
            }
            Shown::Unsolvable(why) => format!("Distance: none, unsolvable ({why})"),
            Shown::Failed(why) => format!("Distance: unknown ({why})"),
            Shown::NotComputed => {
                "Distance: not computed (no exact distance beyond 5x5; hints are not optimal)"
                    .to_string()
            }
        }
    }

    fn draw(&self, frame: &mut Frame) {
        let board = self.now.board();
        let area = frame.area();
        let (need_width, need_height) = needed_size(board);
        if area.width < need_width || area.height < need_height {
            // Squeezed, the layout would drop rows of the board without a word: say so instead,
            // and draw the game again once the terminal is large enough (every resize redraws).
            frame.render_widget(
                Paragraph::new(too_small(board, area.width, area.height)).wrap(Wrap { trim: true }),
                area,
            );
            return;
        }
        let rows = u16::try_from(board.height() * 2).unwrap_or(u16::MAX);
        let [title, grid, info, help] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(rows),
            Constraint::Length(INFO_LINES),
            Constraint::Length(HELP_LINES),
        ])
        .areas(area);
        frame.render_widget(
            Paragraph::new(self.title()).style(Style::new().add_modifier(Modifier::BOLD)),
            title,
        );
        let mut hinted = Vec::new();
        let mut cell = self.now.blank();
        for &mv in &self.hint {
            match board.step(cell, mv) {
                Some(next) => {
                    hinted.push(next);
                    cell = next;
                }
                None => break,
            }
        }
        let digits = tile_digits(board);
        let mut lines = Vec::new();
        for row in 0..board.height() {
            let mut spans = Vec::new();
            for column in 0..board.width() {
                let cell = row * board.width() + column;
                let tile = self.now.tiles()[cell];
                let home = tile != 0 && self.goal.tiles()[cell] == tile;
                let style = match (tile, hinted.contains(&cell), home) {
                    (0, _, _) => Style::new(),
                    (_, true, _) => Style::new().fg(Color::Black).bg(Color::Yellow),
                    (_, _, true) => Style::new().fg(Color::White).bg(Color::Green),
                    _ => Style::new().fg(Color::White).bg(Color::Blue),
                };
                let text = if tile == 0 {
                    format!(" {BLANK_GLYPH:>digits$} ")
                } else {
                    format!(" {tile:>digits$} ")
                };
                spans.push(Span::styled(text, style));
                spans.push(Span::raw(" "));
            }
            lines.push(Line::from(spans));
            lines.push(Line::raw(""));
        }
        frame.render_widget(Paragraph::new(lines).block(Block::new()), grid);
        let info_lines = vec![
            Line::styled(
                self.distance_line(),
                Style::new().add_modifier(Modifier::BOLD),
            ),
            Line::raw(format!(
                "Moves made: {}   Shuffle depth: {}",
                self.history.len(),
                self.depth
            )),
            Line::raw(self.message.clone()),
        ];
        frame.render_widget(Paragraph::new(info_lines), info);
        frame.render_widget(
            Paragraph::new(HELP.iter().map(|l| Line::raw(*l)).collect::<Vec<_>>())
                .style(Style::new().fg(Color::DarkGray)),
            help,
        );
    }
}

/// The digits of the board's largest tile (at least 2, as the small boards were drawn).
fn tile_digits(board: LargeBoard) -> usize {
    (board.cells() - 1).to_string().len().max(2)
}

/// The key reminder under the board.
const HELP: [&str; 2] = [
    "arrows/hjkl move the blank  ? or H hint  u undo",
    "s shuffle (+/- depth)  r restart  q quit",
];

/// Lines under the board: the distance, moves made, the last message, a blank line.
const INFO_LINES: u16 = 4;
/// The key reminder's lines, as a terminal height.
const HELP_LINES: u16 = 2;
const _: () = assert!(HELP.len() == HELP_LINES as usize);

/// The smallest terminal (columns, lines) that shows the whole game on `board`: the title, two
/// lines per row of tiles, the information lines and the key reminder, and a width that holds
/// the tiles (the largest tile's digits and a space either side, and a gap, each) and the
/// reminder.
fn needed_size(board: LargeBoard) -> (u16, u16) {
    let help_width = HELP.iter().map(|l| l.len()).max().unwrap_or(0);
    let width = (board.width() * (tile_digits(board) + 3)).max(help_width);
    let height = 1 + board.height() * 2 + usize::from(INFO_LINES + HELP_LINES);
    let clamp = |n: usize| u16::try_from(n).unwrap_or(u16::MAX);
    (clamp(width), clamp(height))
}

/// What a terminal too small for the game shows.
fn too_small(board: LargeBoard, width: u16, height: u16) -> String {
    let (need_width, need_height) = needed_size(board);
    format!(
        "npuzzle play: the terminal is too small ({width}x{height}); the {board} board needs at least {need_width}x{need_height}. Enlarge it to go on (q quits)."
    )
}

/// The start (if given) and the goal of the game: small states where they fit, else large
/// ones (`--board 10x10`, or a start of more than 25 cells).
fn start_and_goal_of(args: &PlayArgs) -> Result<(Option<LargeState>, LargeState), Failure> {
    if let Some(start) = &args.start {
        if let Some((start, goal)) = large_pair(start, &args.goal)? {
            return Ok((Some(start), goal));
        }
        let (start, goal) = start_and_goal(start, &args.goal)?;
        return Ok((
            Some(LargeState::from_small(&start)),
            LargeState::from_small(&goal),
        ));
    }
    let large = match args.goal.size.as_deref() {
        Some(text) => Some(
            text.parse::<LargeBoard>()
                .map_err(|e| Failure::usage(format!("invalid --size: {e}")))?,
        )
        .filter(|board| board.to_small().is_none()),
        None => None,
    };
    let goal = match (large, args.goal.goal.as_deref()) {
        (Some(board), Some(text)) => LargeState::parse(text, Some(board))
            .map_err(|e| Failure::usage(format!("invalid goal `{}`: {e}", shorten(text))))?,
        (Some(board), None) => LargeState::goal(board),
        (None, _) => LargeState::from_small(&goal_or_default(&args.goal)?),
    };
    Ok((None, goal))
}

/// Plays until `q`.
pub fn run(args: &PlayArgs, context: &mut Context) -> CommandResult {
    let (start, goal) = start_and_goal_of(args)?;
    let how = How::within(limits(&args.limit, Limits::NONE.time(DEFAULT_MOVE_LIMIT)))
        .in_metric(args.metric.into());
    let seed = args.seed.unwrap_or_else(npuzzle::sample::fresh_seed);
    // Tables are opened (or built) before the screen changes, so a note goes to the shell.
    let mut game = Game::new(context.oracle(), how, start, goal, args.depth, seed);
    let mut terminal =
        ratatui::try_init().map_err(|e| Failure::usage(format!("play needs a terminal: {e}")))?;
    let played = play(&mut terminal, &mut game);
    ratatui::restore();
    played.map_err(Failure::from)
}

fn play(terminal: &mut DefaultTerminal, game: &mut Game<'_>) -> std::io::Result<()> {
    loop {
        terminal.draw(|frame| game.draw(frame))?;
        let Event::Key(key) = event::read()? else {
            continue;
        };
        if key.kind != KeyEventKind::Press {
            continue;
        }
        if game.key(key.code, key.modifiers) == Flow::Quit {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(game: &mut Game<'_>, code: KeyCode) -> Flow {
        game.key(code, KeyModifiers::NONE)
    }

    /// The arrow key that moves the blank by `mv`.
    fn arrow(mv: Move) -> KeyCode {
        match mv {
            Move::Up => KeyCode::Up,
            Move::Down => KeyCode::Down,
            Move::Left => KeyCode::Left,
            Move::Right => KeyCode::Right,
        }
    }

    #[test]
    fn keys_move_undo_hint_and_quit_on_a_3x3_in_both_metrics() {
        let oracle = Oracle::in_memory();
        let start = LargeState::parse("123456078", None).unwrap();
        let goal = LargeState::goal(start.board());
        // STM: two moves from the goal; the hint is one cell.
        let mut game = Game::new(
            &oracle,
            How::default(),
            Some(start.clone()),
            goal.clone(),
            7,
            1,
        );
        assert_eq!(game.distance_line(), "Distance: 2 (exact, from the table)");
        assert_eq!(press(&mut game, KeyCode::Char('?')), Flow::Go);
        assert_eq!(game.hint, [Move::Right]);
        assert_eq!(game.message, "hint: R (2 moves left on an optimal path)");
        press(&mut game, KeyCode::Right);
        assert_eq!(game.distance_line(), "Distance: 1 (exact, from the table)");
        assert!(game.hint.is_empty(), "a move clears the hint");
        press(&mut game, KeyCode::Char('h'));
        assert_eq!(game.now, start);
        press(&mut game, KeyCode::Char('u'));
        assert_eq!(game.history.len(), 1);
        press(&mut game, KeyCode::Char('l'));
        assert_eq!(game.now, goal);
        assert_eq!(game.message, "solved in 2 moves!");
        press(&mut game, KeyCode::Right);
        assert_eq!(game.message, "R: the blank cannot leave the board");
        // Shuffles at the exact depth, in the metric's distance.
        press(&mut game, KeyCode::Char('s'));
        assert_eq!(game.message, "shuffled to exact depth 7");
        assert_eq!(game.distance_line(), "Distance: 7 (exact, from the table)");

        // MTM: one slide from the goal; the hint is the whole slide.
        let mtm = How::default().in_metric(Metric::Mtm);
        let mut game = Game::new(&oracle, mtm, Some(start), goal.clone(), 7, 1);
        assert_eq!(
            game.distance_line(),
            "Distance: 1 MTM moves (exact, from the table)"
        );
        press(&mut game, KeyCode::Char('H'));
        assert_eq!(game.hint, [Move::Right, Move::Right]);
        assert_eq!(
            game.message,
            "hint: RR (1 moves in MTM left on an optimal path)"
        );
        for mv in game.hint.clone() {
            press(&mut game, arrow(mv));
        }
        assert_eq!(game.now, goal);
        press(&mut game, KeyCode::Char('?'));
        assert_eq!(game.message, "solved: no move needed");

        assert_eq!(press(&mut game, KeyCode::Char('q')), Flow::Quit);
        assert_eq!(press(&mut game, KeyCode::Esc), Flow::Quit);
        assert_eq!(
            game.key(KeyCode::Char('c'), KeyModifiers::CONTROL),
            Flow::Quit
        );
    }

    #[test]
    fn beyond_5x5_no_distance_is_shown_and_the_hint_is_the_constructive_solvers() {
        let oracle = Oracle::in_memory();
        for (board, metric) in [
            ("10x10", Metric::Stm),
            ("10x10", Metric::Mtm),
            ("7x6", Metric::Mtm),
        ] {
            let goal = LargeState::goal(board.parse().unwrap());
            let how = How::default().in_metric(metric);
            let mut game = Game::new(&oracle, how, None, goal.clone(), 12, 5);
            assert_eq!(game.message, "shuffled: a uniformly random state");
            assert!(game.now != goal && game.now.can_reach(&goal));
            assert!(
                game.distance_line().contains("not computed"),
                "{}",
                game.distance_line()
            );
            press(&mut game, KeyCode::Char('?'));
            let solution = solve_constructive(&game.now, &goal).unwrap();
            assert_eq!(game.hint, metric.first_move(&solution), "{board} {metric}");
            assert!(
                game.message.contains("constructive solver, not optimal"),
                "{}",
                game.message
            );
            assert!(game.now.after(&game.hint).is_ok(), "a legal move");
            if metric == Metric::Stm {
                assert_eq!(game.hint.len(), 1);
            }
            let (before, hint) = (game.now.clone(), game.hint.clone());
            for &mv in &hint {
                press(&mut game, arrow(mv));
            }
            assert_eq!(Ok(game.now.clone()), before.after(&hint));
            assert_eq!(game.history.len(), hint.len());
        }
        // Played to the end by hints alone, a 6x6 reaches the goal and says so.
        let goal = LargeState::goal("6x6".parse().unwrap());
        let mut game = Game::new(&oracle, How::default(), None, goal.clone(), 12, 9);
        for _ in 0..10_000 {
            if game.now == goal {
                break;
            }
            press(&mut game, KeyCode::Char('?'));
            let next = arrow(game.hint[0]);
            press(&mut game, next);
        }
        assert_eq!(game.now, goal);
        assert!(game.message.starts_with("solved in"), "{}", game.message);
        assert_eq!(game.distance_line(), "Distance: 0 (at the goal)");
        assert!(game.title().ends_with("goal tiles in order, blank last"));
    }

    #[test]
    fn the_terminal_needed_grows_with_the_board_and_too_small_says_by_how_much() {
        let three: LargeBoard = "3x3".parse().unwrap();
        let ten: LargeBoard = "10x10".parse().unwrap();
        let wide: LargeBoard = "32x32".parse().unwrap();
        assert_eq!(needed_size(three), (47, 13));
        assert_eq!(needed_size(ten), (50, 27));
        assert_eq!(needed_size(wide), (32 * 7, 71));
        let text = too_small(ten, 40, 20);
        assert!(
            text.contains("(40x20)") && text.contains("needs at least 50x27"),
            "{text}"
        );
    }
}
