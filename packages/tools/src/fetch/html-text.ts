/** Elements whose content is never text a reader sees. */
const DROPPED = /<(script|style|noscript|template|svg|iframe|object|head|title)\b[^>]*>[\s\S]*?<\/\1\s*>/gi
const BLOCK =
  /<\/?(p|div|section|article|header|footer|nav|main|aside|br|hr|tr|table|ul|ol|dl|dd|dt|blockquote|pre|form|figure|figcaption|h[1-6])\b[^>]*>/gi

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  mdash: '—',
  ndash: '–',
  hellip: '…',
  copy: '©',
  reg: '®',
  trade: '™',
  deg: '°',
  euro: '€',
  pound: '£',
  times: '×',
  middot: '·',
  bull: '•',
  laquo: '«',
  raquo: '»',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
}

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10)
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
    }
    return NAMED[body.toLowerCase()] ?? whole
  })
}

/**
 * Readable text of an HTML page: the title first, scripts, styles and the head dropped, block
 * elements on their own lines, headings marked with #, list items with -, links as `text (url)`.
 */
export function htmlToText(html: string): string {
  const title = /<title\b[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1]
  let text = html.replace(/<!--[\s\S]*?-->/g, '').replace(DROPPED, '')
  text = text.replace(/<h([1-6])\b[^>]*>/gi, (_m, level: string) => `\n${'#'.repeat(Number(level))} `)
  text = text.replace(/<li\b[^>]*>/gi, '\n- ')
  text = text.replace(
    /<a\b[^>]*?href\s*=\s*["']([^"']*)["'][^>]*>([\s\S]*?)<\/a>/gi,
    (_m, href: string, inner: string) =>
      /^(https?:|\/)/.test(href) && inner.replace(/<[^>]*>/g, '').trim() ? `${inner} (${href})` : inner,
  )
  text = text.replace(BLOCK, '\n').replace(/<[^>]*>/g, '')
  text = decodeEntities(text)
  const lines = text
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v\r]+/g, ' ').trim())
    .filter((line, i, all) => line !== '' || (i > 0 && all[i - 1] !== ''))
  const body = lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
  return title ? `${decodeEntities(title).trim()}\n\n${body}` : body
}
