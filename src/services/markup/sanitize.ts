// Gitea's sanitizer (modules/markup/sanitizer_default.go: bluemonday's UGC policy plus Gitea's additions) with
// sanitize-html: an allow-list of elements and attributes, no scripts, styles limited to colours, no event
// handlers, only harmless URL schemes, `rel="nofollow"` on links, ids and in-page links prefixed `user-content-`.
// Classes survive only where the renderer set them itself (marked with the render's nonce), or where Gitea lets
// users set them (syntax highlighting spans, org-mode list states).
import { sanitizeHtmlModule } from '../../lazyPackage.ts';
import { INTERNAL_ATTR } from './markdown.ts';

/** Gitea's generalSafeElements, plus checkboxes (task lists). */
const ELEMENTS = [
  ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'h7', 'h8', 'br', 'b', 'i', 'strong', 'em', 'a', 'pre', 'code', 'img', 'tt'],
  ...['div', 'ins', 'del', 'sup', 'sub', 'p', 'ol', 'ul', 'table', 'thead', 'tbody', 'tfoot', 'blockquote', 'label'],
  ...['dl', 'dt', 'dd', 'kbd', 'q', 'samp', 'var', 'hr', 'ruby', 'rt', 'rp', 'li', 'tr', 'td', 'th', 's', 'strike', 'summary'],
  ...['details', 'caption', 'figure', 'figcaption', 'abbr', 'bdo', 'cite', 'dfn', 'mark', 'small', 'span', 'time', 'video', 'wbr'],
  'input',
];

/** Gitea's generalSafeAttrs (on every allowed element), plus bluemonday's standard `id`, `title`, `dir`, `lang`. */
const SAFE_ATTRS = [
  ...['abbr', 'accept', 'accept-charset', 'accesskey', 'action', 'align', 'alt', 'aria-describedby', 'aria-hidden'],
  ...['aria-label', 'aria-labelledby', 'axis', 'border', 'cellpadding', 'cellspacing', 'char', 'charoff', 'charset'],
  ...['checked', 'clear', 'cols', 'colspan', 'color', 'compact', 'coords', 'datetime', 'dir', 'disabled', 'enctype'],
  ...['for', 'frame', 'headers', 'height', 'hreflang', 'hspace', 'ismap', 'label', 'lang', 'maxlength', 'media'],
  ...['method', 'multiple', 'name', 'nohref', 'noshade', 'nowrap', 'open', 'prompt', 'readonly', 'rel', 'rev', 'rows'],
  ...['rowspan', 'rules', 'scope', 'selected', 'shape', 'size', 'span', 'start', 'summary', 'tabindex', 'target'],
  ...['title', 'type', 'usemap', 'valign', 'value', 'vspace', 'width', 'itemprop', 'itemscope', 'itemtype', 'id', 'class'],
];

/** Classes the renderer sets (marked internal), and those Gitea lets users set. */
const CLASSES: Record<string, Array<string | RegExp>> = {
  a: ['ref-issue', 'commit', 'compare'],
  code: ['nohighlight'],
  span: ['emoji', /^\w{0,2}$/],
  li: ['task-list-item', 'unchecked', 'checked', 'indeterminate'],
  ul: ['contains-task-list'],
};

/** What a user may set without the renderer's mark. */
const USER_CLASS: Record<string, RegExp> = { span: /^\w{0,2}$/, li: /^(unchecked|checked|indeterminate)$/ };

/**
 * URL schemes links and images may use (Gitea allows every scheme but javascript, vbscript and data; this is the
 * list of those in use, relative URLs included).
 */
const SCHEMES = [
  'http',
  'https',
  'mailto',
  'ftp',
  'ftps',
  'sftp',
  'ssh',
  'git',
  'irc',
  'ircs',
  'xmpp',
  'tel',
  'magnet',
  'matrix',
  'news',
  'nntp',
];

const COLOR = [
  /^#(?:[0-9a-f]{3}){1,2}$/i,
  /^[a-z]+$/i,
  /^rgba?\(\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*(?:,\s*(?:0|1|0?\.\d+)\s*)?\)$/i,
];
const STYLED = ['div', 'span', 'p', 'tr', 'th', 'td'];

const prefixed = (id: string): string => (id.startsWith('user-content-') ? id : `user-content-${id}`);

/** Classes of one element after the renderer's mark is checked: ours when marked, else only what users may set. */
function classesOf(tag: string, attribs: Record<string, string>, nonce: string): string | undefined {
  const cls = attribs.class;
  if (cls === undefined) return undefined;
  if (attribs[INTERNAL_ATTR] === nonce) return cls;
  const allowed = USER_CLASS[tag];
  const kept = allowed ? cls.split(/\s+/).filter((c) => allowed.test(c)) : [];
  return kept.length ? kept.join(' ') : undefined;
}

/** Sanitizes rendered HTML; `nonce` is the render's mark of its own elements. */
export function sanitize(html: string, nonce: string): string {
  return sanitizeHtmlModule()(html, {
    allowedTags: ELEMENTS,
    allowedAttributes: {
      '*': SAFE_ATTRS,
      a: ['href'],
      img: ['src', 'loading'],
      video: ['src', 'autoplay', 'controls'],
      input: ['data-source-position'],
      ...Object.fromEntries(STYLED.map((t) => [t, [...SAFE_ATTRS, 'style']])),
    },
    allowedClasses: CLASSES,
    allowedStyles: Object.fromEntries(STYLED.map((t) => [t, { color: COLOR, 'background-color': COLOR }])),
    allowedSchemes: SCHEMES,
    allowedSchemesByTag: {},
    allowProtocolRelative: true,
    // The elements whose content is code, not text: dropped with their content.
    nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'template'],
    selfClosing: ['img', 'br', 'hr', 'wbr', 'input'],
    // Checkboxes only (Gitea's `type` must match ^checkbox$): other inputs are dropped.
    exclusiveFilter: (frame) => frame.tag === 'input' && frame.attribs.type !== 'checkbox',
    transformTags: {
      '*': (tagName, attribs) => {
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(attribs)) {
          if (k === INTERNAL_ATTR || k === 'class') continue;
          if (k === 'id') out.id = prefixed(v);
          else if (k === 'href' && v.startsWith('#')) out.href = `#${prefixed(v.slice(1))}`;
          else out[k] = v;
        }
        const cls = classesOf(tagName, attribs, nonce);
        if (cls) out.class = cls;
        if (tagName === 'a' && out.href !== undefined) out.rel = out.target === '_blank' ? 'nofollow noopener' : 'nofollow';
        return { tagName, attribs: out };
      },
    },
  });
}
