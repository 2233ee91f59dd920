// The notebook widget's front end (anywidget ESM): the built page's <mcts-playground> element.
//
// It imports `embed.js` from the page the kernel serves on loopback (`page_url`, the package's
// own `page/` directory: nothing is fetched from elsewhere), creates the element with the
// widget's settings as attributes, and bridges the embed's postMessage protocol
// (www/src/embed/host.ts) to the widget's traits:
//   page → kernel: `ready`, `move`, `position`, `searchFinished`, `reviewFinished`, `gameOver`,
//     `error` events set
//     the traits (`moves`, `game`, `last_search`, `last_error`, ...) and are sent as custom
//     messages `{event, detail}` (the Python callbacks; `searchFinished`'s `report`, the search's
//     `mcts search --json` report, becomes the kernel's `report`);
//   kernel → page: a change of `game`/`moves` is `setPosition` (no reload); a change of
//     `preset`, `view`, `seed`, `playouts`, `ms`, `p0`, `p1`, `show` reloads the frame with the
//     new settings and the position kept; custom messages `{command: 'startSearch', ...}` are
//     the embed's `startSearch` command, `{command: 'showReview', report}` its `showReview` (the
//     kernel's review shown in the page).

/** The element's attributes from the model (the embed's URL parameters). */
function attributes(model) {
  const a = {
    game: model.get('game'),
    moves: (model.get('moves') || []).join(','),
    preset: model.get('preset'),
    view: model.get('view'),
    p0: model.get('p0'),
    p1: model.get('p1'),
  };
  for (const k of ['seed', 'playouts', 'ms']) {
    const v = model.get(k);
    if (v !== null && v !== undefined) a[k] = String(v);
  }
  const show = model.get('show');
  if (show) a.show = show;
  return a;
}

function sameList(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

async function render({ model, el }) {
  const base = model.get('page_url');
  // The page's own script (packaged, served on loopback by the kernel): defines <mcts-playground>.
  await import(`${base}embed.js`);
  const pg = document.createElement('mcts-playground');
  pg.style.width = model.get('width');
  pg.style.height = model.get('height');
  // What the page shows now (from its events), so a trait change that only echoes it is not
  // sent back as a command.
  let shown = { game: model.get('game'), moves: [...(model.get('moves') || [])] };
  const apply = () => {
    for (const [k, v] of Object.entries(attributes(model))) pg.setAttribute(k, v);
  };
  apply();
  el.append(pg);

  const emit = (event, detail) => model.send({ event, detail });
  const follow = (d) => {
    if (typeof d.game === 'string' && Array.isArray(d.moves)) {
      shown = { game: d.game, moves: [...d.moves] };
      model.set('game', d.game);
      model.set('moves', [...d.moves]);
    }
  };
  for (const type of ['ready', 'move', 'position', 'searchFinished', 'reviewFinished', 'gameOver', 'error']) {
    pg.addEventListener(type, (ev) => {
      const d = ev.detail || {};
      if (type === 'ready') model.set('ready', true);
      if (type === 'error') {
        model.set('last_error', String(d.message ?? ''));
      } else {
        follow(d);
      }
      if (type === 'searchFinished') model.set('last_search', d);
      if (type === 'gameOver') model.set('game_over', d);
      model.save_changes();
      emit(type, d);
    });
  }

  const onPosition = () => {
    const game = model.get('game');
    const moves = [...(model.get('moves') || [])];
    if (game === shown.game && sameList(moves, shown.moves)) return;
    shown = { game, moves };
    pg.setPosition(game, moves);
  };
  model.on('change:game', onPosition);
  model.on('change:moves', onPosition);
  for (const k of ['preset', 'view', 'seed', 'playouts', 'ms', 'p0', 'p1', 'show']) model.on(`change:${k}`, apply);
  model.on('change:height', () => {
    pg.style.height = model.get('height');
  });
  model.on('msg:custom', (msg) => {
    if (msg && msg.command === 'startSearch') {
      const { command: _c, ...options } = msg;
      pg.startSearch(options);
    }
    if (msg && msg.command === 'showReview') pg.showReview(msg.report);
  });
  return () => pg.remove();
}

export default { render };
