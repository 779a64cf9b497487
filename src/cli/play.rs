//! `npuzzle play`: the terminal game. The board is drawn with ratatui; after every move the
//! answer layer gives the exact distance (from the table, or a search within `--limit` on
//! boards without one; a search that gives up shows a lower bound, labelled so).
//!
//! Keys: arrows or `h j k l` move the blank (U D L R, the names the command line uses: the
//! up arrow moves the blank up); `?` or `H` a hint (an optimal next move); `u` undo; `s`
//! shuffle to an exact depth (`+`/`-` change it); `r` back to the start; `q`, Esc or Ctrl-C
//! quit. (`h` moves, as in vi: the issue's `h` for a hint clashed with `hjkl`.)

use std::time::Duration;

use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::{DefaultTerminal, Frame};

use npuzzle::answer::{AnswerError, NoAnswer};
use npuzzle::large::{scramble_walk, LargeState};
use npuzzle::rng::SplitMix64;
use npuzzle::sample::{SampleError, SampleOptions};
use npuzzle::{How, Limits, Method, Move, Oracle, State, BLANK_GLYPH};

use super::args::PlayArgs;
use super::input::{goal_or_default, start_and_goal};
use super::limits::limits;
use super::{CommandResult, Context, Failure};

/// The per-move search limit on boards without a table when `--limit` is not given: short,
/// so that the game answers while one plays.
pub const DEFAULT_MOVE_LIMIT: Duration = Duration::from_secs(2);

/// What is shown as the distance of the position on the board.
enum Shown {
    Exact { distance: u8, method: Method },
    AtLeast { bound: u32, why: String },
    Unsolvable(String),
    Failed(String),
}

struct Game<'o> {
    oracle: &'o Oracle,
    how: How,
    start: State,
    goal: State,
    now: State,
    history: Vec<State>,
    shown: Shown,
    /// The hinted move, until the next move.
    hint: Option<Move>,
    message: String,
    depth: u8,
    rng: SplitMix64,
}

impl<'o> Game<'o> {
    fn distance(&self) -> Shown {
        match self.oracle.distance(&self.now, &self.goal, self.how) {
            Ok(answer) => {
                let (value, cost) = answer.split();
                match value {
                    Ok(distance) => Shown::Exact {
                        distance,
                        method: cost.method,
                    },
                    Err(NoAnswer::GaveUp(limit)) => Shown::AtLeast {
                        bound: self.oracle.lower_bound(&self.now, &self.goal).unwrap_or(0),
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
        self.hint = None;
    }

    fn step(&mut self, mv: Move) {
        match self.now.apply(mv) {
            Some(next) => {
                self.history.push(self.now);
                self.now = next;
                self.message = format!("moved {}", mv.letter());
                self.refresh();
                if self.now == self.goal {
                    self.message = format!("solved in {} moves!", self.history.len());
                }
            }
            None => self.message = format!("{}: the blank cannot leave the board", mv.letter()),
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

    fn hint(&mut self) {
        match self.oracle.solve(&self.now, &self.goal, self.how) {
            Ok(answer) => match answer.value {
                Ok(solution) => match solution.moves().first() {
                    Some(&mv) => {
                        self.hint = Some(mv);
                        self.message = format!(
                            "hint: {} ({} moves left on an optimal path)",
                            mv.letter(),
                            solution.len()
                        );
                    }
                    None => self.message = "solved: no move needed".into(),
                },
                Err(NoAnswer::GaveUp(limit)) => {
                    self.message = format!("no hint: the search gave up at its {limit}")
                }
                Err(_) => self.message = "no hint: the goal cannot be reached".into(),
            },
            Err(error) => self.message = format!("no hint: {error}"),
        }
    }

    /// A new start: drawn uniformly at exactly `depth` where the board has a table, else a
    /// walk of `depth` random moves (never straight back).
    fn shuffle(&mut self) {
        let options = SampleOptions {
            count: 1,
            depths: self.depth..=self.depth,
            unsolvable: 0,
        };
        let seed = self.rng.next_u64();
        let drawn = match self.oracle.sample(&self.goal, &options, seed) {
            Ok(mut instances) => instances
                .next()
                .map(|i| i.start)
                .ok_or_else(|| "no instance drawn".to_string()),
            Err(AnswerError::Sample(SampleError::DepthsNeedTable { .. })) => {
                let walked = scramble_walk(
                    &LargeState::from_small(&self.goal),
                    usize::from(self.depth),
                    &mut self.rng,
                );
                // A walk keeps the goal's board, so the state is always a small one.
                let state = walked
                    .to_small()
                    .ok_or_else(|| "no instance drawn".to_string());
                self.message = format!(
                    "shuffled by {} random moves (exact depths need a table)",
                    self.depth
                );
                state
            }
            Err(error) => Err(error.to_string()),
        };
        match drawn {
            Ok(start) => {
                if !self.message.starts_with("shuffled by") {
                    self.message = format!("shuffled to exact depth {}", self.depth);
                }
                self.start = start;
                self.now = start;
                self.history.clear();
                self.refresh();
            }
            Err(why) => self.message = format!("cannot shuffle: {why}"),
        }
    }

    fn reset(&mut self) {
        self.now = self.start;
        self.history.clear();
        self.message = "back at the start".into();
        self.refresh();
    }

    fn draw(&self, frame: &mut Frame) {
        let board = self.now.board();
        let rows = u16::try_from(board.height()).expect("a side is at most 12");
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
        let [title, grid, info, help] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(rows * 2),
            Constraint::Length(INFO_LINES),
            Constraint::Length(HELP_LINES),
        ])
        .areas(area);
        frame.render_widget(
            Paragraph::new(format!("npuzzle play: {board}, goal {}", self.goal))
                .style(Style::new().add_modifier(Modifier::BOLD)),
            title,
        );
        let hinted = self.hint.and_then(|mv| board.step(self.now.blank(), mv));
        let mut lines = Vec::new();
        for row in 0..board.height() {
            let mut spans = Vec::new();
            for column in 0..board.width() {
                let cell = row * board.width() + column;
                let tile = self.now.cells()[cell];
                let home = tile != 0 && self.goal.cells()[cell] == tile;
                let style = match (tile, Some(cell) == hinted, home) {
                    (0, _, _) => Style::new(),
                    (_, true, _) => Style::new().fg(Color::Black).bg(Color::Yellow),
                    (_, _, true) => Style::new().fg(Color::White).bg(Color::Green),
                    _ => Style::new().fg(Color::White).bg(Color::Blue),
                };
                let text = if tile == 0 {
                    format!("  {BLANK_GLYPH} ")
                } else {
                    format!(" {tile:>2} ")
                };
                spans.push(Span::styled(text, style));
                spans.push(Span::raw(" "));
            }
            lines.push(Line::from(spans));
            lines.push(Line::raw(""));
        }
        frame.render_widget(Paragraph::new(lines).block(Block::new()), grid);
        let distance = match &self.shown {
            Shown::Exact { distance, method } => {
                let how = if method.is_table() {
                    "exact, from the table".to_string()
                } else {
                    format!("exact, by {method}")
                };
                format!("Distance: {distance} ({how})")
            }
            Shown::AtLeast { bound, why } => {
                format!("Distance: at least {bound} (lower bound: {why})")
            }
            Shown::Unsolvable(why) => format!("Distance: none, unsolvable ({why})"),
            Shown::Failed(why) => format!("Distance: unknown ({why})"),
        };
        let info_lines = vec![
            Line::styled(distance, Style::new().add_modifier(Modifier::BOLD)),
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
/// the tiles (5 columns and a gap each) and the reminder.
fn needed_size(board: npuzzle::Board) -> (u16, u16) {
    let help_width = HELP.iter().map(|l| l.len()).max().unwrap_or(0);
    let help_width = u16::try_from(help_width).expect("a line of the key reminder");
    let (columns, rows) = (
        u16::try_from(board.width()).expect("a side is at most 12"),
        u16::try_from(board.height()).expect("a side is at most 12"),
    );
    let width = (columns * 6).max(help_width);
    let height = 1 + rows * 2 + INFO_LINES + HELP_LINES;
    (width, height)
}

/// What a terminal too small for the game shows.
fn too_small(board: npuzzle::Board, width: u16, height: u16) -> String {
    let (need_width, need_height) = needed_size(board);
    format!(
        "npuzzle play: the terminal is too small ({width}x{height}); the {board} board needs at least {need_width}x{need_height}. Enlarge it to go on (q quits)."
    )
}

/// Plays until `q`.
pub fn run(args: &PlayArgs, context: &mut Context) -> CommandResult {
    let (start, goal) = match &args.start {
        Some(start) => {
            let (start, goal) = start_and_goal(start, &args.goal)?;
            (Some(start), goal)
        }
        None => (None, goal_or_default(&args.goal)?),
    };
    let how = How::within(limits(&args.limit, Limits::NONE.time(DEFAULT_MOVE_LIMIT)));
    let seed = args.seed.unwrap_or_else(npuzzle::sample::fresh_seed);
    let oracle = context.oracle();
    let mut game = Game {
        oracle,
        how,
        start: start.unwrap_or(goal),
        goal,
        now: start.unwrap_or(goal),
        history: Vec::new(),
        shown: Shown::Failed(String::new()),
        hint: None,
        message: String::new(),
        depth: args.depth,
        rng: SplitMix64::new(seed),
    };
    // Tables are opened (or built) before the screen changes, so a note goes to the shell.
    if start.is_some() {
        game.refresh();
        game.message = "your start".into();
    } else {
        game.shuffle();
    }
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
        match key.code {
            KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => return Ok(()),
            KeyCode::Char('q') | KeyCode::Esc => return Ok(()),
            KeyCode::Up | KeyCode::Char('k') => game.step(Move::Up),
            KeyCode::Down | KeyCode::Char('j') => game.step(Move::Down),
            KeyCode::Left | KeyCode::Char('h') => game.step(Move::Left),
            KeyCode::Right | KeyCode::Char('l') => game.step(Move::Right),
            KeyCode::Char('?') | KeyCode::Char('H') => game.hint(),
            KeyCode::Char('u') => game.undo(),
            KeyCode::Char('s') => game.shuffle(),
            KeyCode::Char('r') => game.reset(),
            KeyCode::Char('+') | KeyCode::Char('=') => {
                game.depth = game.depth.saturating_add(1);
                game.message = format!("shuffle depth {}", game.depth);
            }
            KeyCode::Char('-') => {
                game.depth = game.depth.saturating_sub(1);
                game.message = format!("shuffle depth {}", game.depth);
            }
            _ => {}
        }
    }
}
