/**
 * A glob as a RegExp over `/`-separated root-relative paths: `**` any number of directories,
 * `*` and `?` within one name, `[abc]` a class, `{a,b}` alternatives. A pattern without a `/`
 * matches a name at any depth (`*.ts` is `**` + `/*.ts`), as in .gitignore.
 */
export function globToRegExp(glob: string): RegExp {
  const pattern = glob.includes('/') ? glob.replace(/^\.\//, '').replace(/^\//, '') : `**/${glob}`
  let out = ''
  let braces = 0
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        const slash = pattern[i + 2] === '/'
        out += slash ? '(?:.*/)?' : '.*'
        i += slash ? 2 : 1
      } else out += '[^/]*'
    } else if (c === '?') out += '[^/]'
    else if (c === '[') {
      const close = pattern.indexOf(']', i + 1)
      if (close < 0) out += '\\['
      else {
        const body = pattern
          .slice(i + 1, close)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')
        out += `[${body}]`
        i = close
      }
    } else if (c === '{') {
      braces++
      out += '(?:'
    } else if (c === '}' && braces > 0) {
      braces--
      out += ')'
    } else if (c === ',' && braces > 0) out += '|'
    else out += c.replace(/[.+^$()|\\\]{}]/g, '\\$&')
  }
  return new RegExp(`^${out}${')'.repeat(braces)}$`)
}
