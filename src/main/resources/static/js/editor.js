// The page editor (issue 26). The arrangement is a list of {key, page, rotation, file?}: `page` is the source page
// number (from 1), `rotation` the clockwise degrees added to it, `file` the id of another PDF of the account whose page
// was inserted (absent for this file's pages), `key` tells duplicates apart. Every change replaces the list whole and
// pushes the old one on the undo stack, so undo/redo are exact and the count of changes is the stack's size.
// Saving sends {pages: [{page, rotation, file?}]}; the server turns it into one workflow run (merge when other files'
// pages are in it, organize, then rotate).
const root = document.getElementById('editor');
const list = document.getElementById('pages');
const problem = document.getElementById('problem');
// whatever fails unexpectedly is said on the page, not only in the console
const say = message => { problem.textContent = message; problem.hidden = false; };
window.addEventListener('error', e => say(`Error: ${e.message}`));
window.addEventListener('unhandledrejection', e => say(`Error: ${e.reason?.message ?? e.reason}`));
// This file's bytes are fetched while PDF.js loads, and PDF.js's worker starts before they have arrived: the first
// thumbnail waits for the slowest of the three, not for their sum (bench/editor.sh).
const ownBytes = fetch(root.dataset.pdf);
ownBytes.catch(() => {}); // its failure is said when the document is opened, not as an unhandled rejection
const pdfjs = await import(root.dataset.pdfjs);
pdfjs.GlobalWorkerOptions.workerSrc = root.dataset.worker;
const worker = new pdfjs.PDFWorker(); // one for every document the page opens

let arrangement = [];
let selected = new Set();
let anchor = null; // the last page clicked alone: the start of a Shift+click range
const undo = [];
const redo = [];
let nextKey = 1;
const elements = new Map(); // key → <li>, kept across changes so that drawn thumbnails are not drawn again

// The PDFs drawn, each opened once: this file's at once, another file's when its pages are first inserted.
const documents = new Map(); // file id ('' for this file) → Promise of the PDF.js document
const otherFile = id => [...(document.getElementById('insert-file')?.options ?? [])].find(o => o.value === id);
function documentOf(file = '') {
  if (!documents.has(file)) {
    const opened = open(file ? fetch(otherFile(file).dataset.pdf) : ownBytes);
    opened.catch(() => documents.delete(file)); // a failed fetch may be tried again
    documents.set(file, opened);
  }
  return documents.get(file);
}
const doc = await documentOf();
async function open(response) {
  try {
    const answer = await response;
    if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
    return await pdfjs.getDocument({ data: await answer.arrayBuffer(), worker }).promise;
  } catch (e) {
    say(`Could not open the PDF: ${e.message}`);
    throw e;
  }
}
arrangement = Array.from({ length: doc.numPages }, (_, i) => ({ key: nextKey++, page: i + 1, rotation: 0 }));
document.getElementById('loading').remove();

// Each source page is rendered once, only when one of its thumbnails comes into view: a 1,000-page PDF stays light.
const rendered = new Map(); // 'file:page' → Promise<canvas>
function source(file, page) {
  const key = `${file}:${page}`;
  if (!rendered.has(key)) {
    rendered.set(key, documentOf(file).then(d => d.getPage(page)).then(async p => {
      const base = p.getViewport({ scale: 1 });
      const viewport = p.getViewport({ scale: 160 / Math.max(base.width, base.height) });
      const canvas = document.createElement('canvas');
      canvas.width = Math.ceil(viewport.width);
      canvas.height = Math.ceil(viewport.height);
      await p.render({ canvasContext: canvas.getContext('2d'), viewport }).promise;
      return canvas;
    }));
  }
  return rendered.get(key);
}
const inView = new IntersectionObserver(entries => {
  for (const entry of entries) {
    if (!entry.isIntersecting) continue;
    inView.unobserve(entry.target);
    const canvas = entry.target.querySelector('canvas');
    source(entry.target.dataset.file ?? '', Number(entry.target.dataset.source)).then(drawn => {
      canvas.width = drawn.width;
      canvas.height = drawn.height;
      canvas.getContext('2d').drawImage(drawn, 0, 0);
      entry.target.dataset.drawn = Math.round(performance.now()); // ms since the page opened: bench/editor.sh reads it
    });
  }
}, { rootMargin: '400px' });

function pageElement(item) {
  const li = document.createElement('li');
  li.className = 'page';
  li.dataset.key = item.key;
  li.dataset.source = item.page;
  if (item.file) li.dataset.file = item.file;
  li.innerHTML = `<button type="button" class="thumb"><canvas width="120" height="160"></canvas></button>
    <span class="label"></span>
    <span class="actions">
      <button type="button" data-one="view">View</button><button type="button" data-one="left">⟲</button><button type="button" data-one="right">⟳</button>
      <button type="button" data-one="duplicate">Duplicate</button><button type="button" data-one="delete" class="danger">Delete</button>
    </span>`;
  inView.observe(li);
  return li;
}

function render() {
  const keys = new Set(arrangement.map(p => p.key));
  for (const [key, li] of elements) if (!keys.has(key)) { li.remove(); elements.delete(key); }
  selected = new Set([...selected].filter(k => keys.has(k)));
  arrangement.forEach((item, i) => {
    if (!elements.has(item.key)) elements.set(item.key, pageElement(item));
    const li = elements.get(item.key);
    const n = i + 1;
    li.dataset.rotation = item.rotation;
    li.classList.toggle('selected', selected.has(item.key));
    li.querySelector('canvas').style.transform = `rotate(${item.rotation}deg)`;
    const turned = item.rotation ? `, rotated ${item.rotation}°` : '';
    const from = item.file ? otherFile(item.file).dataset.name : null;
    li.querySelector('.label').textContent = from ? `${n} (${from}, p. ${item.page})` : `${n} (p. ${item.page})`;
    const thumb = li.querySelector('.thumb');
    thumb.setAttribute('aria-label', `Page ${n}, page ${item.page} of ${from ?? 'the file'}${turned}`);
    thumb.setAttribute('aria-pressed', selected.has(item.key));
    for (const b of li.querySelectorAll('[data-one]')) b.setAttribute('aria-label', `${b.dataset.one === 'left' ? 'Rotate left' : b.dataset.one === 'right' ? 'Rotate right' : b.textContent} page ${n}`);
    if (list.children[i] !== li) list.insertBefore(li, list.children[i] || null);
  });
  const none = selected.size === 0;
  for (const b of root.querySelectorAll('[data-act]')) b.disabled = none;
  document.getElementById('undo').disabled = undo.length === 0;
  document.getElementById('redo').disabled = redo.length === 0;
  document.getElementById('save').disabled = undo.length === 0 || arrangement.length === 0;
  document.getElementById('changes').textContent = undo.length === 0 ? 'No change' : undo.length === 1 ? '1 change' : `${undo.length} changes`;
  document.getElementById('tools').disabled = undo.length > 0;
  document.getElementById('tools-unsaved').hidden = undo.length === 0;
}

function change(next) {
  undo.push(arrangement);
  redo.length = 0;
  arrangement = next;
  render();
}

function step(from, to) {
  if (from.length === 0) return;
  to.push(arrangement);
  arrangement = from.pop();
  render();
}

// The actions, on a set of keys; each is one change (one undo step), whatever the number of pages it touches.
const actions = {
  left: keys => change(arrangement.map(p => keys.has(p.key) ? { ...p, rotation: (p.rotation + 270) % 360 } : p)),
  right: keys => change(arrangement.map(p => keys.has(p.key) ? { ...p, rotation: (p.rotation + 90) % 360 } : p)),
  delete: keys => change(arrangement.filter(p => !keys.has(p.key))),
  duplicate: keys => change(arrangement.flatMap(p => keys.has(p.key) ? [p, { ...p, key: nextKey++ }] : [p])),
  earlier: keys => moveBy(keys, -1),
  later: keys => moveBy(keys, 1),
};

function moveBy(keys, by) {
  const next = [...arrangement];
  const order = next.map((p, i) => i).filter(i => keys.has(next[i].key));
  if (by > 0) order.reverse();
  for (const i of order) {
    const j = i + by;
    if (j < 0 || j >= next.length || keys.has(next[j].key)) continue;
    [next[i], next[j]] = [next[j], next[i]];
  }
  change(next);
}

function select(key, event) {
  if (event.shiftKey && anchor !== null) {
    const keys = arrangement.map(p => p.key);
    const [a, b] = [keys.indexOf(anchor), keys.indexOf(key)].sort((x, y) => x - y);
    if (!(event.ctrlKey || event.metaKey)) selected.clear();
    keys.slice(a, b + 1).forEach(k => selected.add(k));
  } else if (event.ctrlKey || event.metaKey) {
    if (!selected.delete(key)) selected.add(key);
    anchor = key;
  } else {
    selected = new Set([key]);
    anchor = key;
  }
  render();
}

list.addEventListener('click', event => {
  const li = event.target.closest('.page');
  if (!li) return;
  const key = Number(li.dataset.key);
  const one = event.target.closest('[data-one]');
  if (one?.dataset.one === 'view') view(key);
  else if (one) actions[one.dataset.one](new Set([key]));
  else if (event.target.closest('.thumb')) select(key, event);
});
list.addEventListener('dblclick', event => {
  const li = event.target.closest('.page');
  if (li && event.target.closest('.thumb')) view(Number(li.dataset.key));
});

// A larger view of one page, drawn for the window when shown (with the rotation added so far), in the arrangement's
// order: Previous/Next (← →) go through the pages, Escape or Close ends it.
const viewer = document.getElementById('viewer');
const viewerCanvas = document.getElementById('viewer-canvas');
let viewing = null; // the key of the page shown
let drawing = null; // PDF.js's render task on the viewer's canvas, cancelled when another page is asked for
async function view(key) {
  const i = arrangement.findIndex(p => p.key === key);
  if (i < 0) return;
  viewing = key;
  const item = arrangement[i];
  const from = item.file ? ` of ${otherFile(item.file).dataset.name}` : '';
  document.getElementById('viewer-label').textContent =
    `Page ${i + 1} of ${arrangement.length} (p. ${item.page}${from}${item.rotation ? `, rotated ${item.rotation}°` : ''})`;
  document.getElementById('viewer-previous').disabled = i === 0;
  document.getElementById('viewer-next').disabled = i === arrangement.length - 1;
  delete viewerCanvas.dataset.drawn;
  if (!viewer.open) viewer.showModal();
  const page = await (await documentOf(item.file ?? '')).getPage(item.page);
  if (viewing !== key) return;
  const rotation = (page.rotate + item.rotation) % 360;
  const base = page.getViewport({ scale: 1, rotation });
  const fit = Math.min((innerWidth * 0.9 - 40) / base.width, (innerHeight * 0.95 - 160) / base.height);
  const viewport = page.getViewport({ scale: fit * devicePixelRatio, rotation });
  drawing?.cancel();
  viewerCanvas.width = Math.floor(viewport.width);
  viewerCanvas.height = Math.floor(viewport.height);
  viewerCanvas.style.width = `${Math.floor(viewport.width / devicePixelRatio)}px`;
  drawing = page.render({ canvasContext: viewerCanvas.getContext('2d'), viewport });
  try {
    await drawing.promise;
    viewerCanvas.dataset.drawn = key; // read by EditorBrowserTest
  } catch (e) {
    if (e.name !== 'RenderingCancelledException') throw e;
  }
}
const viewBy = by => {
  const i = arrangement.findIndex(p => p.key === viewing) + by;
  if (i >= 0 && i < arrangement.length) view(arrangement[i].key);
};
document.getElementById('viewer-previous').addEventListener('click', () => viewBy(-1));
document.getElementById('viewer-next').addEventListener('click', () => viewBy(1));
document.getElementById('viewer-close').addEventListener('click', () => viewer.close());
viewer.addEventListener('close', () => { drawing?.cancel(); viewing = null; });
for (const b of root.querySelectorAll('[data-act]')) b.addEventListener('click', () => actions[b.dataset.act](new Set(selected)));
document.getElementById('undo').addEventListener('click', () => step(undo, redo));
document.getElementById('redo').addEventListener('click', () => step(redo, undo));

document.addEventListener('keydown', event => {
  if (viewer.open) { // the page shown larger has the keys: ← and →; Escape is the dialog's own
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') viewBy(event.key === 'ArrowLeft' ? -1 : 1);
    return;
  }
  if (event.target.closest('input, textarea, select')) return;
  const ctrl = event.ctrlKey || event.metaKey;
  const key = event.key.toLowerCase();
  if (ctrl && key === 'z') step(event.shiftKey ? redo : undo, event.shiftKey ? undo : redo);
  else if (ctrl && key === 'y') step(redo, undo);
  else if (ctrl || selected.size === 0) return;
  else if (event.key === 'Delete' || event.key === 'Backspace') actions.delete(new Set(selected));
  else if (key === 'r') actions[event.shiftKey ? 'left' : 'right'](new Set(selected));
  else if (event.altKey && event.key === 'ArrowLeft') actions.earlier(new Set(selected));
  else if (event.altKey && event.key === 'ArrowRight') actions.later(new Set(selected));
  else if (key === 'v') view(arrangement.find(p => selected.has(p.key)).key);
  else return;
  event.preventDefault();
});

// Pages of another file, at the chosen place: one change, undone as one. The other file is fetched once, here, so that
// a page number it does not have is said at once.
document.getElementById('insert')?.addEventListener('click', async () => {
  problem.hidden = true;
  const file = document.getElementById('insert-file').value;
  const count = (await documentOf(file)).numPages;
  const pages = pageList(document.getElementById('insert-pages').value, count);
  if (typeof pages === 'string') { say(pages); return; }
  const items = pages.map(page => ({ key: nextKey++, file, page, rotation: 0 }));
  const at = document.getElementById('insert-at').value;
  const chosen = arrangement.map((p, i) => selected.has(p.key) ? i : -1).filter(i => i >= 0);
  const index = at === 'end' || chosen.length === 0 ? arrangement.length : at === 'before' ? chosen[0] : chosen[chosen.length - 1] + 1;
  selected = new Set(items.map(p => p.key));
  change([...arrangement.slice(0, index), ...items, ...arrangement.slice(index)]);
});

// "all", or numbers and ranges ("1-3, 5") of a document of `count` pages → the page numbers, or what is wrong (a string).
function pageList(text, count) {
  if (text.trim().toLowerCase() === 'all') return Array.from({ length: count }, (_, i) => i + 1);
  const pages = [];
  for (const item of text.split(/[,\s]+/).filter(Boolean)) {
    const ends = item.match(/^(\d+)(?:-(\d+))?$/);
    const [from, to] = ends ? [Number(ends[1]), Number(ends[2] ?? ends[1])] : [];
    if (!ends || from < 1 || to < from || to > count) return `"${item}" is not a page or range of that file's ${count} pages (such as 1-3, 5, or "all").`;
    for (let p = from; p <= to; p++) pages.push(p);
  }
  return pages.length ? pages : 'Say which pages: "all", or numbers and ranges such as 1-3, 5.';
}

// The chosen file's pages as thumbnails, so that pages are inserted without typing their numbers: drawn when the picker
// is opened (not before: the other file is fetched only then), a click adds the page to the pages field or takes it
// out, and the field, typed or clicked, says which thumbnails are pressed ("all" when none is).
const insertFile = document.getElementById('insert-file');
const insertPages = document.getElementById('insert-pages');
const chooser = document.getElementById('insert-choose');
const choices = document.getElementById('insert-view');
const ranges = pages => pages.reduce((out, p) => {
  const last = out.at(-1);
  if (last && p === last[1] + 1) last[1] = p; else out.push([p, p]);
  return out;
}, []).map(([a, b]) => a === b ? `${a}` : `${a}-${b}`).join(', ');

// the pages the field names; none for "all", or for what is not a list of the file's pages
function chosenPages() {
  const text = insertPages.value.trim().toLowerCase();
  const pages = text === 'all' ? [] : pageList(text, choices.children.length);
  return new Set(typeof pages === 'string' ? [] : pages);
}

function pressedChoices() {
  const chosen = chosenPages();
  for (const li of choices.children) {
    const on = chosen.has(Number(li.dataset.source));
    li.classList.toggle('selected', on);
    li.querySelector('.thumb').setAttribute('aria-pressed', on);
  }
}

async function showChoices() {
  if (!chooser.open) return;
  const file = insertFile.value;
  choices.dataset.file = file;
  choices.replaceChildren();
  const count = (await documentOf(file)).numPages;
  if (choices.dataset.file !== file || choices.children.length) return; // another file chosen meanwhile, or drawn already
  const name = otherFile(file).dataset.name;
  for (let page = 1; page <= count; page++) {
    const li = document.createElement('li');
    li.className = 'page';
    li.dataset.file = file;
    li.dataset.source = page;
    li.innerHTML = `<button type="button" class="thumb" aria-pressed="false"><canvas width="60" height="80"></canvas></button><span class="label">${page}</span>`;
    li.querySelector('.thumb').setAttribute('aria-label', `Page ${page} of ${name}`);
    choices.append(li);
    inView.observe(li);
  }
  pressedChoices();
  choices.scrollIntoView({ block: 'nearest' }); // the side column scrolls on its own: its end may be out of sight
}

chooser?.addEventListener('toggle', showChoices);
insertFile?.addEventListener('change', () => { insertPages.value = 'all'; showChoices(); });
insertPages?.addEventListener('input', pressedChoices);
choices?.addEventListener('click', event => {
  const li = event.target.closest('.page');
  if (!li) return;
  const chosen = chosenPages();
  const page = Number(li.dataset.source);
  if (!chosen.delete(page)) chosen.add(page);
  insertPages.value = chosen.size ? ranges([...chosen].sort((a, b) => a - b)) : 'all';
  pressedChoices();
});

// SortableJS moves the element itself; the arrangement follows, and render() then agrees with the DOM.
// forceFallback: Sortable's own pointer dragging rather than HTML5 drag and drop, the same in every browser.
// fallbackTolerance: a click whose pointer shifts a pixel stays a click (a drag, once started, swallows the click).
Sortable.create(list, {
  animation: 120,
  forceFallback: true,
  fallbackTolerance: 4,
  onEnd: e => {
    if (e.oldIndex === e.newIndex) return;
    const next = [...arrangement];
    next.splice(e.newIndex, 0, ...next.splice(e.oldIndex, 1));
    change(next);
  },
});

document.getElementById('save').addEventListener('click', async () => {
  const button = document.getElementById('save');
  button.disabled = true;
  problem.hidden = true;
  try {
    const answer = await fetch(root.dataset.save, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', [root.dataset.csrfHeader]: root.dataset.csrf },
      body: JSON.stringify({ pages: arrangement.map(p => ({ page: p.page, rotation: p.rotation, ...(p.file && { file: p.file }) })) }),
    });
    const body = await answer.json().catch(() => ({}));
    if (answer.status === 200) {
      location.assign(root.dataset.save.replace(/\/files\/[^/]+\/edit/, `/files/${body.file}/edit`) + '?saved');
      return;
    }
    // a failure keeps the arrangement and its undo history: nothing is lost, the owner may fix it and save again
    problem.textContent = answer.status === 202
      ? `The job ${body.job} is still running; its result will be in Files.`
      : `Not saved: ${body.error?.message ?? 'HTTP ' + answer.status}`;
  } catch (e) {
    problem.textContent = `Not saved: ${e.message}`;
  }
  problem.hidden = false;
  render();
});

render();

// ---- AI edits (issue 26 item 4) ----
// An instruction becomes an edit-plan job (POST …/edit/plan); its plan is shown in words and, when every step arranges
// pages, previewed with the thumbnails above (new order, rotation, deleted pages marked) before anything runs. Apply
// runs the plan's steps as one workflow job on the file as saved (POST …/edit/apply) and opens the result. The plan
// is made for the saved file, so the box waits while the arrangement has unsaved changes (the count of changes says).
const ai = document.getElementById('ai');
const aiForm = document.getElementById('ai-form');
const aiPlan = document.getElementById('ai-plan');
const aiStatus = document.getElementById('ai-status');
const aiProblem = document.getElementById('ai-problem');
const planPreview = document.getElementById('plan-preview');
let planJob = null;

function aiRefresh() {
  const unsaved = undo.length > 0;
  document.getElementById('ai-unsaved').hidden = !unsaved;
  document.getElementById('plan').disabled = unsaved;
  document.getElementById('apply').disabled = unsaved;
}
new MutationObserver(aiRefresh).observe(document.getElementById('changes'), { childList: true, characterData: true, subtree: true });
aiRefresh();

async function aiPost(url, body) {
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', [root.dataset.csrfHeader]: root.dataset.csrf },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: await answer.json().catch(() => ({})) };
}

const listed = pages => pages.join(', ');
// one line per step, in plain words; an operation without its own sentence is named with its options
function stepInWords({ operation, options }) {
  if (operation === 'organize') return `Keep page${options.pages.length === 1 ? '' : 's'} ${listed(options.pages)}, in this order.`;
  if (operation === 'remove-pages') return `Remove page${options.pages.length === 1 ? '' : 's'} ${listed(options.pages)}.`;
  if (operation === 'rotate') return `Rotate ${options.pages ? `page${options.pages.length === 1 ? '' : 's'} ${listed(options.pages)}` : 'every page'} by ${options.angle}° clockwise.`;
  const given = Object.entries(options).map(([name, value]) => `${name.replaceAll('_', ' ')}: ${typeof value === 'object' ? JSON.stringify(value) : value}`);
  return `Run ${operation}${given.length ? ` (${given.join('; ')})` : ''}.`;
}

function previewPage(page, rotation, label, deleted) {
  const li = document.createElement('li');
  li.className = deleted ? 'page deleted' : 'page';
  li.dataset.source = page;
  li.dataset.rotation = rotation;
  if (deleted) li.dataset.deleted = '';
  li.innerHTML = '<canvas width="120" height="160" role="img"></canvas><span class="label"></span>';
  const canvas = li.querySelector('canvas');
  canvas.style.transform = `rotate(${rotation}deg)`;
  canvas.setAttribute('aria-label', `Page ${page} of the file${rotation ? `, rotated ${rotation}°` : ''}${deleted ? ', deleted' : ''}`);
  li.querySelector('.label').textContent = label;
  inView.observe(li); // drawn like the editor's own thumbnails, when it scrolls into view
  return li;
}

function showPlan(plan) {
  document.getElementById('plan-summary').textContent = plan.summary || 'The model gave no summary.';
  const steps = document.getElementById('plan-steps');
  steps.replaceChildren(...plan.steps.map(s => Object.assign(document.createElement('li'), { textContent: stepInWords(s) })));
  planPreview.replaceChildren();
  if (plan.pages) {
    plan.pages.forEach((p, i) => planPreview.append(previewPage(p.page, p.rotation, `${i + 1} (p. ${p.page})${p.rotation ? `, ${p.rotation}°` : ''}`, false)));
    plan.deleted_pages.forEach(p => planPreview.append(previewPage(p, 0, `p. ${p}: deleted`, true)));
  }
  planPreview.hidden = !plan.pages;
  aiStatus.textContent = plan.pages ? 'The preview shows the result; nothing has changed yet.'
    : 'These steps change what is on the pages, not their order: no preview. Nothing has changed yet.';
  aiPlan.hidden = false;
}

function refusedOrRunning(what, answer) {
  aiProblem.textContent = answer.status === 202
    ? `The job ${answer.body.job} is still running; its result will be in Jobs.`
    : `${what}: ${answer.body.error?.message ?? 'HTTP ' + answer.status}`;
  aiProblem.hidden = false;
  aiStatus.textContent = '';
}

aiForm.addEventListener('submit', async event => {
  event.preventDefault();
  aiPlan.hidden = true;
  aiProblem.hidden = true;
  planJob = null;
  document.getElementById('plan').disabled = true;
  aiStatus.textContent = 'Planning: the model is reading the pages…';
  try {
    const answer = await aiPost(ai.dataset.plan, { instruction: document.getElementById('instruction').value });
    if (answer.status === 200) {
      planJob = answer.body.job;
      showPlan(answer.body.plan);
    } else {
      refusedOrRunning('No plan', answer);
    }
  } catch (e) {
    refusedOrRunning('No plan', { status: 0, body: { error: { message: e.message } } });
  }
  aiRefresh();
});

document.getElementById('discard').addEventListener('click', () => {
  aiPlan.hidden = true;
  planJob = null;
  aiStatus.textContent = 'Plan discarded; nothing was changed.';
});

document.getElementById('apply').addEventListener('click', async () => {
  const button = document.getElementById('apply');
  button.disabled = true;
  aiProblem.hidden = true;
  aiStatus.textContent = 'Applying the plan…';
  try {
    const answer = await aiPost(ai.dataset.apply, { job: planJob });
    if (answer.status === 200 && answer.body.file) {
      location.assign(ai.dataset.plan.replace(/\/files\/[^/]+\/edit\/plan$/, `/files/${answer.body.file}/edit`) + '?saved');
      return;
    }
    if (answer.status === 200) {
      aiStatus.innerHTML = '';
      const link = Object.assign(document.createElement('a'), { href: `${ai.dataset.jobs}/${answer.body.job}`, textContent: 'its job' });
      aiStatus.append('Applied; the result is not one PDF, so it is not opened here: see ', link, '.');
      aiPlan.hidden = true;
    } else {
      refusedOrRunning('Not applied', answer);
    }
  } catch (e) {
    refusedOrRunning('Not applied', { status: 0, body: { error: { message: e.message } } });
  }
  aiRefresh();
});
