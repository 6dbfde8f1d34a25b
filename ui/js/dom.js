// dom.js -- building the page. Every text goes in as a text node: nothing
// the daemon stored (a memory, an event, a name) is ever parsed as HTML,
// so a stored "<script>" shows as those characters. There is no innerHTML
// anywhere in the console.

// h('a', {href: '#/apps', class: 'x', onclick: fn}, 'text', child, [more]):
// an element with attributes, listeners (on*) and children; strings and
// numbers become text nodes, null and false are skipped, arrays flattened.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      el.addEventListener(name.slice(2), value);
    } else if (name === 'value') {
      el.value = value;
    } else {
      el.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// Replaces everything in el with children.
export function fill(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

// A JSON value shown as indented text.
export function json(value) {
  return h('pre', {class: 'json'}, JSON.stringify(value, null, 2));
}

// text with the [start, end) code point ranges marked (search highlights).
export function marked(text, ranges) {
  const points = Array.from(text);
  const out = [];
  let at = 0;
  for (const [start, end] of [...(ranges || [])].sort((a, b) => a[0] - b[0])) {
    if (start < at || end <= start) continue;
    out.push(points.slice(at, start).join(''));
    out.push(h('mark', {}, points.slice(start, end).join('')));
    at = end;
  }
  out.push(points.slice(at).join(''));
  return out;
}

export function when(iso) {
  if (!iso) return '—';
  return iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

// A table: columns [{label, cell: row => node|text}], rows.
export function table(columns, rows, empty = 'nothing here') {
  if (!rows.length) return h('p', {class: 'empty'}, empty);
  return h('table', {},
    h('thead', {}, h('tr', {}, columns.map(c => h('th', {}, c.label)))),
    h('tbody', {}, rows.map(row => h('tr', {}, columns.map(c => h('td', {}, c.cell(row)))))));
}

// A <select> of options (a value, or [value, label]) with value selected.
export function select(name, options, value) {
  return h('select', {name}, options.map(o => {
    const [v, label] = Array.isArray(o) ? o : [o, o];
    return h('option', {value: v, selected: v === (value || '')}, label);
  }));
}

// A button that asks before it acts.
export function confirmButton(label, question, action) {
  return h('button', {
    class: 'danger',
    onclick: async () => {
      if (window.confirm(question)) await action();
    },
  }, label);
}
