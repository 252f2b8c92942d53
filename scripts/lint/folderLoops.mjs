// Loops between folders inside one core layer. The layer rules only forbid imports upward between
// layers, so two folders of one layer could still import each other (tools/ ↔ knowledge/, or a ring
// of three): each then needs the other to be understood or moved, which is what the layers are
// there to prevent. A folder here is the first folder under src/core/; a loop is a strongly
// connected group of them, named with one import per step so it can be cut where it belongs.
import { CORE_LAYERS } from './layers.mjs';

const folderOf = (file) => /^src\/core\/([^/]+)\//.exec(file)?.[1];

/**
 * `modules`: dependency-cruiser's `output.modules` (each `{ source, dependencies: [{ resolved }] }`).
 * Returns one line per loop: `a → b → a (a/x.ts → b/y.ts; b/y.ts → a/z.ts)`.
 */
export function folderLoops(modules, layers = CORE_LAYERS) {
  const layerOf = new Map(layers.flatMap((l) => l.folders.map((f) => [f, l.name])));
  /** folder → folder → the first import seen that ties them */
  const edges = new Map();
  for (const m of modules) {
    const from = folderOf(m.source);
    if (!from) continue;
    for (const d of m.dependencies ?? []) {
      const to = folderOf(d.resolved ?? '');
      if (!to || to === from || !layerOf.has(from) || layerOf.get(from) !== layerOf.get(to)) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from).has(to)) edges.get(from).set(to, `${m.source} → ${d.resolved}`);
    }
  }
  return stronglyConnected(edges).map((group) => describeLoop(group, edges)).sort();
}

/** Tarjan's algorithm: the groups of two or more folders that reach each other. */
function stronglyConnected(edges) {
  const nodes = [...new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])])].sort();
  let index = 0;
  const idx = new Map(), low = new Map(), stack = [], onStack = new Set(), groups = [];
  const visit = (v) => {
    idx.set(v, index); low.set(v, index); index++;
    stack.push(v); onStack.add(v);
    for (const w of [...(edges.get(v)?.keys() ?? [])].sort()) {
      if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) !== idx.get(v)) return;
    const group = [];
    let w;
    do { w = stack.pop(); onStack.delete(w); group.push(w); } while (w !== v);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const v of nodes) if (!idx.has(v)) visit(v);
  return groups;
}

/** One cycle through the group, from its first folder by name, with the import behind each step. */
function describeLoop(group, edges) {
  const inGroup = new Set(group);
  const start = group[0];
  // Breadth-first from start back to start, inside the group: the shortest ring through `start`.
  const prev = new Map();
  const queue = [start];
  let last;
  while (queue.length && !last) {
    const v = queue.shift();
    for (const w of [...(edges.get(v)?.keys() ?? [])].sort()) {
      if (!inGroup.has(w)) continue;
      if (w === start) { last = v; break; }
      if (!prev.has(w)) { prev.set(w, v); queue.push(w); }
    }
  }
  const ring = [last];
  while (ring[0] !== start) ring.unshift(prev.get(ring[0]));
  ring.push(start);
  const steps = ring.slice(0, -1).map((f, i) => edges.get(f).get(ring[i + 1]));
  const rest = group.length > ring.length - 1 ? ` (the loop also takes in ${group.filter((f) => !ring.includes(f)).join(', ')})` : '';
  return `${ring.join(' → ')}: ${steps.join('; ')}${rest}`;
}
