/**
 * Just enough of the DOM for Preact to render components in Node (the unit stage has no browser and
 * no DOM package): elements, text, attributes, style, listeners. What a test reads back is text and
 * attributes; layout (sizes, scrolling) is not modelled — a ResizeObserver that never fires stands in.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */

class FakeNode {
  parentNode: FakeElement | null = null;
  constructor(readonly nodeType: number, readonly ownerDocument: FakeDocument) {}
  get nextSibling(): FakeNode | null {
    const siblings = this.parentNode?.childNodes;
    return siblings ? siblings[siblings.indexOf(this) + 1] ?? null : null;
  }
  remove(): void { this.parentNode?.removeChild(this); }
  get textContent(): string { return ''; }
}

class FakeText extends FakeNode {
  constructor(public data: string, doc: FakeDocument) { super(3, doc); }
  override get textContent(): string { return String(this.data); }
}

export class FakeElement extends FakeNode {
  readonly childNodes: FakeNode[] = [];
  readonly attrs = new Map<string, string>();
  readonly style: Record<string, unknown> & { setProperty(k: string, v: string): void } = { setProperty(k: string, v: string) { (this as any)[k] = v; } };
  readonly listeners = new Map<string, Set<(e: unknown) => void>>();
  innerHTML = '';
  readonly namespaceURI = 'http://www.w3.org/1999/xhtml';
  constructor(readonly localName: string, doc: FakeDocument) { super(1, doc); }
  get nodeName(): string { return this.localName.toUpperCase(); }
  get tagName(): string { return this.nodeName; }
  get firstChild(): FakeNode | null { return this.childNodes[0] ?? null; }
  get attributes(): { name: string; value: string }[] { return [...this.attrs].map(([name, value]) => ({ name, value })); }
  override get textContent(): string { return this.innerHTML || this.childNodes.map((c) => c.textContent).join(''); }
  override set textContent(v: string) { for (const c of [...this.childNodes]) this.removeChild(c); this.innerHTML = ''; if (v) this.appendChild(new FakeText(v, this.ownerDocument)); }
  setAttribute(name: string, value: unknown): void { this.attrs.set(name, String(value)); }
  getAttribute(name: string): string | null { return this.attrs.get(name) ?? null; }
  removeAttribute(name: string): void { this.attrs.delete(name); }
  addEventListener(type: string, fn: (e: unknown) => void): void {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)!.add(fn);
  }
  removeEventListener(type: string, fn: (e: unknown) => void): void { this.listeners.get(type)?.delete(fn); }
  focus(): void { /* nothing to focus in Node */ }
  /** Calls this element's `type` listeners (no bubbling: tests click the button itself). */
  dispatch(type: string): void {
    for (const fn of this.listeners.get(type) ?? []) fn.call(this, { type, target: this, currentTarget: this, preventDefault() {}, stopPropagation() {} });
  }
  insertBefore(node: FakeNode, ref: FakeNode | null): FakeNode {
    node.parentNode?.removeChild(node);
    const at = ref ? this.childNodes.indexOf(ref) : -1;
    if (at < 0) this.childNodes.push(node); else this.childNodes.splice(at, 0, node);
    node.parentNode = this;
    return node;
  }
  appendChild(node: FakeNode): FakeNode { return this.insertBefore(node, null); }
  removeChild(node: FakeNode): FakeNode {
    const at = this.childNodes.indexOf(node);
    if (at >= 0) this.childNodes.splice(at, 1);
    node.parentNode = null;
    return node;
  }
  /** Every element below this one (depth first) matching `test`. */
  findAll(test: (el: FakeElement) => boolean): FakeElement[] {
    const out: FakeElement[] = [];
    for (const c of this.childNodes) {
      if (c instanceof FakeElement) {
        if (test(c)) out.push(c);
        out.push(...c.findAll(test));
      }
    }
    return out;
  }
}

export class FakeDocument {
  createElement(name: string): FakeElement { return new FakeElement(name, this); }
  createElementNS(_ns: string, name: string): FakeElement { return new FakeElement(name, this); }
  createTextNode(data: string): FakeText { return new FakeText(data, this); }
}

/** A fresh document and root element; installs the few globals rendering touches (ResizeObserver, document). */
export function fakeDom(): { document: FakeDocument; root: FakeElement } {
  const document = new FakeDocument();
  const g = globalThis as any;
  g.document ??= document;
  g.ResizeObserver ??= class { observe(): void {} unobserve(): void {} disconnect(): void {} };
  g.requestAnimationFrame ??= (cb: (t: number) => void) => setTimeout(() => cb(Date.now()), 0);
  g.cancelAnimationFrame ??= (id: number) => clearTimeout(id);
  return { document, root: document.createElement('div') };
}
