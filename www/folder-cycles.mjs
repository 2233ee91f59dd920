// Folder-level import loops in src/ (`npm run cycles` runs it after madge's file-level check): the
// page's folders (app/, board/, compare/, overlay/, ...) and its top-level modules (state.ts,
// protocol.ts, ...: the folder "."), each a node, with an edge wherever a file of one imports a
// file of the other (type imports too: they are dependencies a reader follows). The page's entry
// point (main.ts) imports everything and nothing imports it: it is left out. The worker (the files
// under worker/, created by URL from engine.ts, never imported) is the folder `worker`. A loop
// (a folder reaching itself through others) is printed with the imports that make it, and the
// exit status is 1.
import madge from 'madge';

const ENTRIES = new Set(['main.ts']);
const folderOf = (file) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '.');

const graph = (await madge('src', { fileExtensions: ['ts'], excludeRegExp: [/\.test\.ts$/] })).obj();
/** folder → folder → one import that makes the edge (`from → to`). */
const edges = new Map();
for (const [file, deps] of Object.entries(graph)) {
  if (ENTRIES.has(file)) continue;
  for (const dep of deps) {
    if (dep.startsWith('..')) continue; // the wasm packages, outside src/
    const a = folderOf(file);
    const b = folderOf(dep);
    if (a === b) continue;
    if (!edges.has(a)) edges.set(a, new Map());
    if (!edges.get(a).has(b)) edges.get(a).set(b, `${file} → ${dep}`);
  }
}

// Tarjan's strongly connected components: every component of more than one folder is a loop.
let index = 0;
const idx = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const loops = [];
function visit(v) {
  idx.set(v, index);
  low.set(v, index++);
  stack.push(v);
  onStack.add(v);
  for (const w of edges.get(v)?.keys() ?? []) {
    if (!idx.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) !== idx.get(v)) return;
  const comp = [];
  let w;
  do {
    w = stack.pop();
    onStack.delete(w);
    comp.push(w);
  } while (w !== v);
  if (comp.length > 1) loops.push(comp.sort());
}
for (const v of edges.keys()) if (!idx.has(v)) visit(v);

if (loops.length === 0) {
  console.log(`✔ No folder-level import loop among ${edges.size} folders.`);
} else {
  for (const comp of loops) {
    console.error(`✖ Folder-level import loop: ${comp.join(', ')}`);
    for (const a of comp) for (const [b, why] of edges.get(a) ?? []) if (comp.includes(b)) console.error(`    ${a} → ${b}: ${why}`);
  }
  process.exit(1);
}
