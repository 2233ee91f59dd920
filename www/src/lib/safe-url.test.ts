import { describe, expect, it } from 'vitest';
import { safeHref, safeHttpUrl } from './safe-url';

const BASE = 'https://site.example/sub/dir/embed.js';

const refused = (raw: string, base: string = BASE) => {
  const r = safeHttpUrl(raw, base);
  if (r instanceof URL) throw new Error(`expected ${JSON.stringify(raw)} to be refused, got ${r.href}`);
  return r.error;
};

describe('safeHttpUrl', () => {
  it('accepts http, https and relative URLs, resolved against the base', () => {
    expect(String(safeHttpUrl('index.html', BASE))).toBe('https://site.example/sub/dir/index.html');
    expect(String(safeHttpUrl('../other/index.html?x=1', BASE))).toBe('https://site.example/sub/other/index.html?x=1');
    expect(String(safeHttpUrl('/root.html', BASE))).toBe('https://site.example/root.html');
    expect(String(safeHttpUrl('?lesson=start', BASE))).toBe('https://site.example/sub/dir/embed.js?lesson=start');
    expect(String(safeHttpUrl('http://localhost:8124/index.html', BASE))).toBe('http://localhost:8124/index.html');
    expect(String(safeHttpUrl('HTTPS://Doi.org/10.1/x', BASE))).toBe('https://doi.org/10.1/x');
    expect(String(safeHttpUrl('  https://doi.org/10.1/x  ', BASE))).toBe('https://doi.org/10.1/x');
  });

  it('refuses every spelling of a script URL, judged by the resolved scheme', () => {
    for (const raw of [
      'javascript:parent.__xss=2//',
      'JaVaScRiPt:parent.__xss=2//',
      ' javascript:parent.__xss=2//',
      '\x01javascript:parent.__xss=2//',
      '\x00\x1f javascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      'jav\rascript:alert(1)',
      'javascript\t:alert(1)',
    ]) {
      expect(refused(raw)).toMatch(/has the scheme javascript: \(only http:, https: and relative URLs are allowed\)$/);
    }
  });

  it('refuses the other schemes that can run script or read local data', () => {
    expect(refused('data:text/html,<script>parent.__xss=3</script>')).toMatch(/has the scheme data:/);
    expect(refused('blob:https://site.example/0b8e3c1e-5c1a-4f0b-9d1c-6c1f0d1e2f3a')).toMatch(/has the scheme blob:/);
    expect(refused('vbscript:msgbox(1)')).toMatch(/has the scheme vbscript:/);
    expect(refused('filesystem:https://site.example/temporary/x.html')).toMatch(/has the scheme filesystem:/);
    expect(refused('file:///etc/passwd')).toMatch(/has the scheme file:/);
    expect(refused('about:blank')).toMatch(/has the scheme about:/);
    // A relative URL is judged after resolution: against a base that is not http(s), it is refused.
    expect(refused('index.html', 'file:///home/x/embed.js')).toMatch(/has the scheme file:/);
  });

  it('names text that is not a URL, quoting it as JSON (control characters escaped, long text cut)', () => {
    expect(refused('http://[::1', BASE)).toBe('"http://[::1" is not a URL');
    expect(refused('x', 'not a base')).toBe('"x" is not a URL');
    expect(refused('\x01javascript:x')).toMatch(/^"\\u0001javascript:x" has the scheme javascript:/);
    expect(refused(`javascript:${'a'.repeat(200)}`)).toMatch(/^"javascript:a{69}…" has the scheme javascript:/);
  });
});

describe('safeHref', () => {
  it('gives the resolved href or null', () => {
    expect(safeHref('paper.pdf', BASE)).toBe('https://site.example/sub/dir/paper.pdf');
    expect(safeHref('javascript:alert(1)', BASE)).toBeNull();
  });
});
