// Rules of the CSS scanner (src/validator/css/css-policy.ts): references made by stylesheets,
// <style> elements and style="" attributes. Ids are permanent.
import type { RuleDef } from '../rules.js';

export const CSS_RULES: readonly RuleDef[] = [
  {
    id: 'css/remote-url',
    severity: 'error',
    title: 'A CSS url(), image-set() or font source points to another origin',
    ref: 'Bundle (remote resources); D-17; D-19',
    hint: 'Put the file under runtime/ and reference it with a path relative to the stylesheet, such as url(images/hero.png).',
  },
  {
    id: 'css/import-remote',
    severity: 'error',
    title: 'An @import loads a stylesheet from another origin',
    ref: 'Bundle (remote resources); D-17; D-19',
    hint: 'Copy the stylesheet into runtime/ and import it with a relative path, such as @import "vendor/reset.css".',
  },
  {
    id: 'css/import-data',
    severity: 'error',
    title: 'An @import loads a data: URL, which the runtime policy blocks for styles',
    ref: 'D-17; D-19',
    hint: 'Move the rules into a .css file under runtime/ (and @import that) or into the stylesheet itself.',
  },
  {
    id: 'css/data-font',
    severity: 'error',
    title: 'An @font-face source is a data: URL, which the runtime policy blocks for fonts',
    ref: 'D-17',
    hint: 'Add the .woff2 or .woff file under runtime/ and use src: url(fonts/name.woff2) format("woff2").',
  },
  {
    id: 'css/root-relative-url',
    severity: 'error',
    title: 'A CSS reference starts with "/" and points to the site root, outside the release',
    ref: 'Bundle (remote resources); D-19',
    hint: 'Use a path relative to the stylesheet (or, for style="" and <style>, to the entrypoint), such as url(../images/a.png).',
  },
  {
    id: 'css/url-outside-bundle',
    severity: 'error',
    title: 'A CSS reference climbs above the bundle root with ".."',
    ref: 'Bundle; D-19',
    hint: 'Keep every referenced file under runtime/ and drop the extra "../" segments.',
  },
  {
    id: 'css/missing-reference',
    severity: 'error',
    title: 'A CSS reference names a file that is not in the bundle',
    ref: 'D-19',
    hint: 'Add the file under runtime/ or correct the path; paths are case-sensitive, and query and fragment are ignored.',
  },
  {
    id: 'css/bad-url',
    severity: 'warning',
    title: 'A url() is malformed, so browsers drop the declaration that holds it',
    ref: 'D-19',
    hint: 'Quote the URL, or escape spaces, quotes and parentheses in it: url("images/my photo.png").',
  },
  {
    id: 'css/invalid-utf8',
    severity: 'warning',
    title: 'A stylesheet is not valid UTF-8',
    ref: 'Bundle; D-19',
    hint: 'Save the file as UTF-8; browsers show each invalid byte sequence as U+FFFD.',
  },
  {
    id: 'css/remote-url-in-custom-property',
    severity: 'error',
    title: 'A custom property carries a remote URL into a URL position',
    ref: 'Bundle (remote resources); D-17; D-34',
    hint: 'Put the file under runtime/ and write its relative path in the custom property, or use url() with the relative path directly.',
  },
  {
    id: 'css/charset-not-utf8',
    severity: 'error',
    title: 'A stylesheet declares an encoding other than UTF-8',
    ref: 'Bundle; D-22; D-36',
    hint: 'Save the stylesheet as UTF-8 and write @charset "utf-8"; (or remove the rule): a browser may decode another declared encoding differently from what was checked.',
  },
];
