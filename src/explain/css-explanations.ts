// Long explanations of the css rules (src/validator/catalogue/css-rules.ts), joined into the
// table of src/explain/all-explanations.ts.
import type { Explanation } from './explanation-kit.js';

export function cssExplanations(): Record<string, Explanation> {
  return {
    'css/remote-url': {
      text: 'The runtime policy loads images and fonts only from the release (images also data:), so a url(), image-set() or @font-face source on another origin (https://…, //host/…) fails in production (D-17; D-19). This applies to stylesheets, <style> elements and style="" attributes.',
      example: { file: 'runtime/styles.css', before: 'background: url(https://cdn.example.com/hero.jpg);', after: 'background: url(images/hero.jpg);' },
    },
    'css/import-remote': {
      text: 'Styles load only from the release (D-17): an @import of another origin\'s stylesheet (a web-font service, a CDN) is blocked. Copy the stylesheet and the fonts it names into runtime/.',
      example: { file: 'runtime/styles.css', before: '@import url("https://fonts.example.com/css2?family=Inter");', after: '@import "fonts/inter.css";' },
    },
    'css/import-data': {
      text: 'data: URLs are allowed for images only; the runtime policy blocks them for stylesheets (D-17), so an @import of a data: URL never loads.',
      example: { file: 'runtime/styles.css', before: '@import url("data:text/css,body{margin:0}");', after: 'body { margin: 0; }' },
    },
    'css/data-font': {
      text: 'Fonts load only from the release (D-17): a data: URL in an @font-face src is blocked. Every url() inside @font-face counts as a font source.',
      example: {
        file: 'runtime/styles.css',
        before: 'src: url(data:font/woff2;base64,d09GMgABAAAAA…) format("woff2");',
        after: 'src: url(fonts/inter.woff2) format("woff2");',
      },
    },
    'css/root-relative-url': {
      text: 'A URL starting with one "/" resolves against the storefront\'s origin, not the release: the file would be looked up on the site, outside the signed bundle (D-19).',
      example: { file: 'runtime/css/site.css', before: 'background: url(/images/a.png);', after: 'background: url(../images/a.png);' },
    },
    'css/url-outside-bundle': {
      text: 'A relative URL that climbs above runtime/ with "../" names a file that is not packaged (D-19).',
      example: { file: 'runtime/styles.css', before: 'background: url(../assets/bg.png);', after: 'background: url(assets/bg.png);   (file moved to runtime/assets/)' },
    },
    'css/missing-reference': {
      text: 'Local CSS references resolve relative to the stylesheet (for <style> and style="", to the entrypoint) and must name a file of the bundle with the exact letter case (D-19). A query or fragment is ignored when matching.',
      example: { file: 'runtime/styles.css', before: 'background: url(Images/Hero.JPG);', after: 'background: url(images/hero.jpg);' },
    },
    'css/bad-url': {
      text: 'An unquoted url() containing a quote, "(", whitespace inside the path or a bad escape is a bad-url token: browsers drop the whole declaration, so the style silently does not apply (CSS Syntax 3). It is a warning because nothing is loaded from it.',
      example: { file: 'runtime/styles.css', before: 'background: url(images/hero.png");', after: 'background: url("images/hero.png");' },
    },
    'css/invalid-utf8': {
      text: 'The stylesheet is decoded as UTF-8; invalid bytes show as U+FFFD, which breaks content: strings and font names written in another encoding. It is a warning because the file is still scanned the way a browser decodes it.',
      example: { file: 'runtime/styles.css', before: '.price::after { content: "€"; }   (saved as Windows-1252)', after: '.price::after { content: "€"; }   (saved as UTF-8)' },
    },
    'css/remote-url-in-custom-property': {
      text: 'A custom property holds text, and var() pastes that text where it is used: a string like "https://…" in a custom property becomes a remote image URL inside image-set(), image() or src(). The frame loads nothing from outside the release (D-17, D-34), so a declaration whose remote string reaches such a position in the same stylesheet is an error, like a remote url().',
      example: { file: 'runtime/styles.css', before: ':root { --hero: "https://cdn.example/hero.png"; } .a { background-image: image-set(var(--hero) 1x); }', after: ':root { --hero: "../images/hero.png"; } .a { background-image: image-set(var(--hero) 1x); }' },
    },
    'css/charset-not-utf8': {
      text: 'The check reads every stylesheet as UTF-8. A browser that gets no encoding from the server honours an @charset rule at the start of the file, so a stylesheet declaring another encoding (iso-2022-jp, shift_jis, windows-1252) may be decoded into different text from the one checked, and escape sequences of some encodings can hide characters. Only a UTF-8 label is allowed: a stylesheet that a browser and the check could read differently is an error (D-36).',
      example: { file: 'runtime/styles.css', before: '@charset "iso-2022-jp";', after: '@charset "utf-8";' },
    },
  };
}
