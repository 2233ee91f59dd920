// The teachers' guide (docs.html): its snippets (`<pre data-snippet>`) are written for this very
// site (the placeholder address replaced by the guide's own folder), each with a Copy button.

import { fillSnippet, siteBaseOf } from './snippet';

const base = siteBaseOf(location.href);
for (const pre of document.querySelectorAll<HTMLPreElement>('pre[data-snippet]')) {
  pre.textContent = fillSnippet(pre.textContent ?? '', base);
  const btn = document.createElement('button');
  btn.type = 'button';
  btn.className = 'copy-snippet';
  btn.textContent = 'Copy';
  btn.title = 'Copy this snippet';
  const said = document.createElement('span');
  said.className = 'copy-said';
  said.setAttribute('role', 'status');
  btn.addEventListener('click', async () => {
    const text = pre.textContent ?? '';
    try {
      await navigator.clipboard.writeText(text);
      said.textContent = ' Copied.';
    } catch {
      // No clipboard here (an insecure origin, a denied permission): select the text instead.
      const range = document.createRange();
      range.selectNodeContents(pre);
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
      said.textContent = ' The clipboard is not available here: the snippet is selected, press Ctrl+C (⌘C) to copy it.';
    }
    btn.dataset.copied = text;
  });
  const bar = document.createElement('div');
  bar.className = 'snippet-bar';
  bar.append(btn, said);
  pre.after(bar);
}
