// What both `#peers` variants (./node.ts and ./bundled.ts) give: the same three loaders.
export type Zod = (typeof import('zod/v4'))['z']
