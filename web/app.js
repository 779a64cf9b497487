// The page of `npuzzle serve`: a board to play on, with the exact distance from the JSON API
// after every move. Plain JavaScript, no build step. Every answer comes from the server (the
// answer layer decides table or search); this file only draws and asks.
'use strict';

const $ = (id) => document.getElementById(id);

const game = {
  width: 3,
  height: 3,
  tiles: [],      // row-major, 0 is the blank
  goal: [],
  history: [],    // earlier tile arrays, for undo
  made: 0,
  solution: null, // {moves: "ULDR", next: 0} from the position it was computed at
  timer: null,
  asked: 0,       // the number of the latest distance question: older answers are dropped
  boards: {},     // what the server gives on each board (GET /api/boards), by `WxH`
};

// The blank moves: U D L R (the names the command line uses).
const STEP = { U: [-1, 0], D: [1, 0], L: [0, -1], R: [0, 1] };
const KEYS = {
  ArrowUp: 'U', ArrowDown: 'D', ArrowLeft: 'L', ArrowRight: 'R',
  k: 'U', j: 'D', h: 'L', l: 'R', // as in vi, and as in `npuzzle play`
};

function boardText() { return `${game.width}x${game.height}`; }
// Beyond 5x5 the server gives no exact distance, only the constructive solver's hints and
// solutions (guarantee none); the menu's note (/api/boards) says why.
function isLarge() { return game.width * game.height > 25; }
const NO_DISTANCE = 'no exact distance beyond 5x5: there is no table or pattern database, and an'
  + ' optimal search would not finish in time; hints and solutions come from the constructive'
  + ' solver and are not optimal';
function stateText(tiles) { return tiles.join(','); }

// Reads a state as the server writes it: `123456780`, `1 2 3 ... 0`, rows split by `/`.
function parseState(text) {
  if (/[\s,]/.test(text)) return text.split(/[\s,/]+/).filter((t) => t !== '').map(Number);
  return text.replace(/\//g, '').split('').map(Number);
}

function defaultGoal(kind) {
  const n = game.width * game.height;
  const tiles = Array.from({ length: n }, (_, i) => i + 1);
  tiles[n - 1] = 0;
  if (kind === 'first') return [0, ...tiles.slice(0, n - 1)];
  return tiles;
}

async function api(path, params, body) {
  const url = new URL(path, window.location.href);
  for (const [k, v] of Object.entries(params || {})) url.searchParams.set(k, v);
  const init = body === undefined ? {} : {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  };
  try {
    const response = await fetch(url, init);
    const json = await response.json().catch(() => ({ error: `status ${response.status}` }));
    return { ok: response.ok, status: response.status, json };
  } catch (e) {
    return { ok: false, status: 0, json: { error: `the server did not answer: ${e}` } };
  }
}

function pairParams(tiles) {
  return {
    start: stateText(tiles), goal: stateText(game.goal), board: boardText(),
    metric: $('metric').value,
  };
}

function say(text) { $('status').textContent = text; }

function render() {
  const grid = $('grid');
  // Smaller cells on larger boards, so that a 10x10 fits beside the side panel.
  const side = Math.max(game.width, game.height);
  grid.style.setProperty('--cell', side <= 5 ? '64px' : `${Math.max(26, Math.floor(320 / side))}px`);
  grid.classList.toggle('large', side > 5);
  grid.style.gridTemplateColumns = `repeat(${game.width}, var(--cell))`;
  grid.replaceChildren();
  const blank = game.tiles.indexOf(0);
  game.tiles.forEach((tile, index) => {
    const cell = document.createElement('button');
    cell.type = 'button';
    cell.className = tile === 0 ? 'cell blank' : 'cell';
    cell.textContent = tile === 0 ? '' : String(tile);
    cell.dataset.index = String(index);
    cell.dataset.tile = String(tile);
    if (tile !== 0 && game.tiles[index] === game.goal[index]) cell.classList.add('home');
    const letter = letterTowards(blank, index);
    cell.disabled = tile === 0;
    if (letter) cell.addEventListener('click', () => play(letter));
    grid.appendChild(cell);
  });
  grid.dataset.state = stateText(game.tiles);
  grid.dataset.board = boardText();
  // A verdict is about the position it was asked for: once the board shows another one, it
  // no longer applies (its "optimal" and its exact distance would be read as this one's).
  const verdict = $('verdict');
  if (verdict.dataset.state !== undefined && verdict.dataset.state !== grid.dataset.state) {
    verdict.textContent = '';
    delete verdict.dataset.verdict;
    delete verdict.dataset.state;
  }
  $('made').textContent = String(game.made);
  $('undo').disabled = game.history.length === 0;
}

// The move that takes the blank from `blank` into cell `index`, if they are neighbours.
function letterTowards(blank, index) {
  for (const [letter, [dr, dc]] of Object.entries(STEP)) {
    const r = Math.floor(blank / game.width) + dr;
    const c = (blank % game.width) + dc;
    if (r >= 0 && r < game.height && c >= 0 && c < game.width && r * game.width + c === index) {
      return letter;
    }
  }
  return null;
}

// The tiles after the blank moves `letter`, or null off the board.
function apply(tiles, letter) {
  const blank = tiles.indexOf(0);
  const [dr, dc] = STEP[letter];
  const r = Math.floor(blank / game.width) + dr;
  const c = (blank % game.width) + dc;
  if (r < 0 || r >= game.height || c < 0 || c >= game.width) return null;
  const next = tiles.slice();
  next[blank] = next[r * game.width + c];
  next[r * game.width + c] = 0;
  return next;
}

// A move by the player: the solution shown no longer applies.
function play(letter) {
  if (!move(letter)) return;
  clearSolution();
}

function move(letter) {
  const next = apply(game.tiles, letter);
  if (!next) {
    say(`${letter}: the blank cannot move off the board`);
    return false;
  }
  game.history.push(game.tiles);
  game.tiles = next;
  game.made += 1;
  say(`moved ${letter}`);
  render();
  showDistance();
  return true;
}

function undo() {
  if (game.history.length === 0) return;
  game.tiles = game.history.pop();
  game.made = Math.max(0, game.made - 1);
  clearSolution();
  say('undone');
  render();
  showDistance();
}

async function showDistance() {
  const asked = ++game.asked;
  const out = $('distance');
  out.dataset.ready = 'false';
  out.textContent = '…';
  $('method').textContent = '';
  if (isLarge()) {
    // No question to the server: it has no exact distance here (it would answer 400).
    const solved = stateText(game.tiles) === stateText(game.goal);
    out.textContent = solved ? '0' : 'not computed';
    out.dataset.distance = solved ? '0' : '';
    $('method').textContent = solved ? 'at the goal' : NO_DISTANCE;
    if (solved && game.made > 0) say('solved!');
    out.dataset.ready = 'true';
    return;
  }
  const reply = await api('/api/distance', pairParams(game.tiles));
  if (asked !== game.asked) return; // a later move asked again
  if (reply.ok) {
    out.textContent = String(reply.json.distance);
    out.dataset.distance = String(reply.json.distance);
    $('method').textContent = reply.json.algorithm === 'table'
      ? 'exact (table)' : `exact (${reply.json.algorithm})`;
    if (reply.json.distance === 0) say('solved!');
  } else if (reply.status === 503) {
    const bound = reply.json.lower_bound;
    out.textContent = 'unknown (search limit)';
    out.dataset.distance = '';
    $('method').textContent = bound === undefined ? reply.json.error
      : `at least ${bound} (lower bound); ${reply.json.error}`;
  } else if (reply.status === 422) {
    out.textContent = 'unsolvable';
    out.dataset.distance = '';
    $('method').textContent = reply.json.error;
  } else {
    out.textContent = 'error';
    out.dataset.distance = '';
    $('method').textContent = reply.json.error;
  }
  out.dataset.ready = 'true';
}

async function hint() {
  say('thinking…');
  const reply = await api('/api/solve', pairParams(game.tiles));
  if (!reply.ok) { say(`no hint: ${reply.json.error}`); return; }
  // The server's first move in the metric: one letter (STM) or one slide, a run of one
  // letter (MTM).
  const hinted = reply.json.hint;
  if (!hinted) { say('solved: no move needed'); return; }
  const letter = hinted[0];
  const blank = game.tiles.indexOf(0);
  const [dr, dc] = STEP[letter];
  const targets = [...hinted].map((_, i) => blank + (i + 1) * (dr * game.width + dc));
  const tiles = targets.map((t) => game.tiles[t]);
  const what = tiles.length === 1 ? `slide tile ${tiles[0]}` : `slide tiles ${tiles.join(', ')}`;
  const quality = reply.json.optimal ? ''
    : ` (from the ${reply.json.algorithm} solver, guarantee ${reply.json.guarantee}: not optimal)`;
  say(`hint: ${hinted} (${what})${quality}`);
  $('status').dataset.hint = hinted;
  $('status').dataset.guarantee = reply.json.guarantee;
  // Only this hint's cells are marked (an earlier hint, in another metric, is gone).
  for (const cell of document.querySelectorAll('#grid .cell.hinted')) cell.classList.remove('hinted');
  for (const target of targets) {
    const cell = document.querySelector(`#grid [data-index="${target}"]`);
    if (cell) cell.classList.add('hinted');
  }
}

function clearSolution() {
  if (game.timer) clearInterval(game.timer);
  game.timer = null;
  game.solution = null;
  $('solution-moves').textContent = '';
  $('step').disabled = true;
  $('play-all').disabled = true;
  $('play-all').textContent = 'Play';
}

async function showSolution() {
  clearSolution();
  say('solving…');
  const reply = await api('/api/solve', pairParams(game.tiles));
  if (!reply.ok) { say(`no solution: ${reply.json.error}`); return; }
  game.solution = { moves: reply.json.moves, next: 0 };
  const metric = reply.json.metric.toUpperCase();
  say(reply.json.optimal
    ? `an optimal solution: ${reply.json.length} moves in ${metric} (${reply.json.algorithm})`
    : `a solution of ${reply.json.length} moves in ${metric} from the ${reply.json.algorithm} solver (guarantee ${reply.json.guarantee}: not optimal)`);
  $('solution-moves').dataset.guarantee = reply.json.guarantee;
  renderSolution();
}

function renderSolution() {
  const box = $('solution-moves');
  box.replaceChildren();
  const { moves, next } = game.solution;
  [...moves].forEach((letter, i) => {
    const span = document.createElement('span');
    span.textContent = letter;
    if (i < next) span.className = 'done';
    if (i === next) span.className = 'next';
    box.appendChild(span);
  });
  box.dataset.moves = moves;
  const left = next < moves.length;
  $('step').disabled = !left;
  $('play-all').disabled = !left;
}

function step() {
  const s = game.solution;
  if (!s || s.next >= s.moves.length) return false;
  if (!move(s.moves[s.next])) return false;
  s.next += 1;
  renderSolution();
  return s.next < s.moves.length;
}

function playAll() {
  if (game.timer) {
    clearInterval(game.timer);
    game.timer = null;
    $('play-all').textContent = 'Play';
    return;
  }
  $('play-all').textContent = 'Pause';
  // A constructive solution of a large board runs to thousands of moves: faster steps.
  const every = game.solution && game.solution.moves.length > 100 ? 25 : 350;
  game.timer = setInterval(() => {
    if (!step()) {
      clearInterval(game.timer);
      game.timer = null;
      $('play-all').textContent = 'Play';
    }
  }, every);
}

// The menu says what each board gives, as the server reports it (GET /api/boards).
// A 503 (the server builds one table at a time, and the first question may be building one)
// is asked again a little later rather than leaving the menu undescribed.
async function describeBoards(tries = 30) {
  const reply = await api('/api/boards');
  if (!reply.ok) {
    if (reply.status === 503 && tries > 1) setTimeout(() => describeBoards(tries - 1), 2000);
    return;
  }
  const select = $('board');
  const chosen = select.value;
  const offered = new Set();
  for (const info of reply.json.boards) {
    game.boards[info.board] = info;
    offered.add(info.board);
    let option = select.querySelector(`option[value="${info.board}"]`);
    if (!option) {
      option = document.createElement('option');
      option.value = info.board;
      select.appendChild(option);
    }
    option.textContent = info.label;
    option.dataset.answers = info.answers;
  }
  for (const option of [...select.options]) {
    if (!offered.has(option.value)) option.remove();
  }
  select.value = offered.has(chosen) ? chosen : '3x3';
  describeBoard();
}

function describeBoard() {
  const info = game.boards[boardText()];
  const note = $('board-note');
  // Until /api/boards answers (it may be building databases), a large board still says why
  // it shows no distance.
  note.textContent = info ? info.detail : (isLarge() ? `${boardText()}: ${NO_DISTANCE}` : '');
  note.dataset.answers = info ? info.answers : (isLarge() ? 'constructive' : '');
  $('depth').max = info && info.max_shuffle !== undefined ? String(info.max_shuffle)
    : (isLarge() ? '100000' : '80');
  // Beyond 5x5 a shuffle is a uniformly random state or a random walk, the server's choice
  // of scramblers; the verdict needs an exact distance, which is out of reach there.
  $('scramble-label').hidden = !isLarge();
  // Beyond 5x5 a claim is replayed and checked, but no length guarantee can be shown: the
  // label a constructive solver gives (none) is the one that can pass there.
  $('claim-guarantee').value = isLarge() ? 'none' : 'optimal';
  $('verify-note').textContent = isLarge()
    ? 'Beyond 5x5 the moves are replayed and checked against the goal; a claim of optimal or within F needs the exact distance, out of reach there, so it is reported unverified.' : '';
}

function setBoard() {
  const [w, h] = $('board').value.split('x').map(Number);
  game.width = w;
  game.height = h;
  const kind = $('goal-kind').value;
  $('goal-text').hidden = kind !== 'custom';
  if (kind === 'custom' && $('goal-text').value.trim() !== '') {
    const tiles = parseState($('goal-text').value.trim());
    if (tiles.length !== w * h || tiles.some(Number.isNaN)) {
      say(`the goal must list ${w * h} tiles`);
      return;
    }
    game.goal = tiles;
  } else {
    game.goal = defaultGoal(kind === 'first' ? 'first' : 'last');
  }
  game.tiles = game.goal.slice();
  game.history = [];
  game.made = 0;
  clearSolution();
  describeBoard();
  render();
  showDistance();
}

async function shuffle() {
  const info = game.boards[boardText()];
  let depth = Number($('depth').value);
  if (info && info.max_shuffle !== undefined && depth > info.max_shuffle) {
    depth = info.max_shuffle;
    $('depth').value = String(depth);
  }
  clearSolution();
  say('shuffling…');
  if (isLarge()) {
    const uniform = $('scramble').value === 'uniform';
    const params = { board: boardText(), goal: stateText(game.goal), count: 1,
      scramble: uniform ? 'uniform' : 'walk' };
    if (!uniform) params.moves = Math.max(0, Math.floor(depth));
    const drawn = await api('/api/sample', params);
    if (!drawn.ok) { say(`cannot shuffle: ${drawn.json.error}`); return; }
    game.tiles = parseState(drawn.json.instances[0].start);
    game.history = [];
    game.made = 0;
    say(uniform
      ? `shuffled: a uniformly random solvable state (seed ${drawn.json.seed})`
      : `shuffled by a walk of ${params.moves} random moves (seed ${drawn.json.seed})`);
    render();
    showDistance();
    return;
  }
  // Only a board with a table can draw a position at an exact depth; elsewhere the page
  // walks without asking (the server would refuse the depth).
  const exact = info ? info.exact_shuffle : ['2x2', '2x3', '3x2', '3x3', '4x3', '3x4'].includes(boardText());
  const reply = exact ? await api('/api/sample', {
    depth, count: 1, goal: stateText(game.goal), board: boardText(),
  }) : null;
  let tiles;
  if (reply && reply.ok && reply.json.instances.length === 1) {
    tiles = parseState(reply.json.instances[0].start);
    say(`shuffled: a position drawn uniformly at exact distance ${depth} (seed ${reply.json.seed})`);
  } else {
    // No table for this board (or no state that deep): a walk of random moves instead.
    tiles = game.goal.slice();
    let last = null;
    for (let i = 0; i < depth; i += 1) {
      const options = Object.keys(STEP).filter(
        (l) => apply(tiles, l) && !(last && STEP[l][0] === -STEP[last][0] && STEP[l][1] === -STEP[last][1]),
      );
      last = options[Math.floor(Math.random() * options.length)];
      tiles = apply(tiles, last);
    }
    say(reply
      ? `shuffled by ${depth} random moves (no position at exact distance ${depth}: ${reply.json.error})`
      : `shuffled by ${depth} random moves (an exact depth needs a table; the distance shown is exact)`);
  }
  game.tiles = tiles;
  game.history = [];
  game.made = 0;
  render();
  showDistance();
}

async function check() {
  const moves = $('claim').value;
  const asked = stateText(game.tiles);
  $('verdict').textContent = 'checking…';
  $('verdict').dataset.state = asked;
  const reply = await api('/api/verify', {}, {
    start: stateText(game.tiles), goal: stateText(game.goal), board: boardText(), moves,
    metric: $('metric').value, guarantee: $('claim-guarantee').value.trim() || 'optimal',
  });
  const out = $('verdict');
  if (out.dataset.state !== asked) return; // the board moved on while the server judged
  if (!reply.ok) {
    out.textContent = `error: ${reply.json.error}`;
    out.dataset.verdict = 'error';
    return;
  }
  const j = reply.json;
  const exact = j.exact === null ? '' : ` (exact distance ${j.exact})`;
  out.textContent = `${j.verdict}${j.detail ? `: ${j.detail}` : ''}${exact}`;
  out.dataset.verdict = j.verdict;
}

document.addEventListener('keydown', (event) => {
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement
      || event.target instanceof HTMLSelectElement) return;
  const letter = KEYS[event.key];
  if (letter) {
    event.preventDefault();
    play(letter);
  } else if (event.key === '?' || event.key === 'H') {
    hint();
  } else if (event.key === 'u') {
    undo();
  }
});

$('board').addEventListener('change', setBoard);
$('goal-kind').addEventListener('change', setBoard);
$('goal-text').addEventListener('change', setBoard);
// The position stays; its distance (and any hint or solution) is asked again in the metric.
$('metric').addEventListener('change', showDistance);
$('shuffle').addEventListener('click', shuffle);
$('reset').addEventListener('click', setBoard);
$('hint').addEventListener('click', hint);
$('undo').addEventListener('click', undo);
$('solution').addEventListener('click', showSolution);
$('step').addEventListener('click', () => { step(); });
$('play-all').addEventListener('click', playAll);
$('check').addEventListener('click', check);
setBoard();
describeBoards();
