import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'

/** The page's files, served as they are (no build step): src/page/ beside these sources. */
const FILES: Record<string, string> = {
  '': 'index.html',
  'app.js': 'app.js',
  'exec-tree.js': 'exec-tree.js',
  'exec-tree.css': 'exec-tree.css',
  'recorded.js': 'recorded.js',
  'journal-tree.js': 'journal-tree.js',
  'run-view.js': 'run-view.js',
  'stream.js': 'stream.js',
  'style.css': 'style.css',
  'answer-form.js': 'answer-form.js',
}
// The form for a tool's question and the exec tree are @nestor/web's: one file each for this page,
// the example app's and (the tree) the eval report.
const WEB = pathToFileURL(createRequire(import.meta.url).resolve('@nestor/web/package.json'))
const SHARED: Record<string, URL> = Object.fromEntries(
  ['answer-form.js', 'exec-tree.js', 'exec-tree.css'].map((name) => [name, new URL(`src/browser/${name}`, WEB)]),
)
const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
}
// From src/*.ts (tests, tsx) the page is ./page; from the published bundle (bundle/*.js or a shared
// chunk in bundle/chunks/) it is the shipped src/page.
const FOLDERS = ['./page/', '../src/page/', '../../src/page/'].map((path) => new URL(path, import.meta.url))

/** A file of the page, or undefined for a name that is not one. */
export async function asset(name: string): Promise<Response | undefined> {
  const file = FILES[name]
  if (file === undefined) return undefined
  for (const folder of FOLDERS) {
    const body = await readFile(SHARED[file] ?? new URL(file, folder)).catch(() => undefined)
    if (body)
      return new Response(body, {
        headers: { 'content-type': TYPES[file.split('.').pop() as string] as string, ...PAGE_HEADERS },
      })
  }
  return undefined
}

/** The page loads only its own files and talks only to its own server; no other page may frame it. */
export const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
}
