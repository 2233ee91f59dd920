import { describe, expect, it } from 'vitest';
import { embedSnippet, fillSnippet, siteBaseOf } from './snippet';

describe('embed snippets', () => {
  it('finds the site folder from a page in it', () => {
    expect(siteBaseOf('https://h.example/sub/dir/index.html?game=hex:7#compare')).toBe('https://h.example/sub/dir/');
    expect(siteBaseOf('http://127.0.0.1:8080/docs.html')).toBe('http://127.0.0.1:8080/');
  });

  it("fills the guide's placeholders with the site's address and origin", () => {
    const text = `<script src="https://YOUR-SITE/PATH/embed.js"></script> postMessage(m, 'https://YOUR-SITE');`;
    expect(fillSnippet(text, 'https://h.example/sub/')).toBe(
      `<script src="https://h.example/sub/embed.js"></script> postMessage(m, 'https://h.example');`,
    );
  });

  it('gives the element for what the page shows, its attributes escaped, embed-only names left out', () => {
    const q = new URLSearchParams('game=hex:7&moves=d4 c5&p0=person&p1=engine&preset=rave&playouts=5000&id=x&embed=1&origin=https://a.b');
    q.set('lesson', '"><script>');
    expect(embedSnippet('https://h.example/sub/', q)).toBe(
      '<script src="https://h.example/sub/embed.js"></script>\n' +
        '<mcts-playground game="hex:7" moves="d4 c5" p0="person" p1="engine" preset="rave" playouts="5000" lesson="&quot;&gt;&lt;script&gt;" width="420px">' +
        'The MCTS playground could not be loaded from https://h.example/sub/embed.js.</mcts-playground>',
    );
  });
});
