import { defineTool, type Tool } from '@nestor/core'
import { z } from 'zod/v4'

/** The one fixture of the harness. An enum of one value: any other id fails the schema. */
export const CONFORMANCE_FIXTURE_ID = 'calc-add'
export const CONFORMANCE_TOOL_NAMES = ['read_fixture', 'run_fixture_test', 'write_fixture_patch'] as const
export type ConformanceToolName = (typeof CONFORMANCE_TOOL_NAMES)[number]

const fixtureId = z.enum([CONFORMANCE_FIXTURE_ID]).describe('The fixture to work on')

// Fixed texts: the harness must behave identically on every run and every machine.
const SOURCE = [
  '// fixture calc-add — src/add.ts',
  'export function add(a: number, b: number): number {',
  '  return a - b',
  '}',
].join('\n')
const REPORT = [
  'FAIL test/add.test.ts > add > adds two numbers',
  '  expected add(2, 3) to be 5, received -1',
  'Tests: 1 failed, 0 passed',
].join('\n')

/**
 * read_fixture, run_fixture_test (always the same controlled failure report) and
 * write_fixture_patch, in memory, with closed schemas (`additionalProperties: false`).
 * Writing stores nothing: the patch is only observed.
 */
export function conformanceTools(): Tool[] {
  return [
    defineTool({
      name: 'read_fixture',
      description: 'Read the source file of a fixture.',
      parameters: z.strictObject({ fixture_id: fixtureId }),
      execute: () => SOURCE,
    }),
    defineTool({
      name: 'run_fixture_test',
      description: "Run a fixture's test suite and return the report.",
      parameters: z.strictObject({ fixture_id: fixtureId }),
      execute: () => REPORT,
    }),
    defineTool({
      name: 'write_fixture_patch',
      description: "Write a patch (the corrected source or a unified diff) for a fixture's source file.",
      parameters: z.strictObject({
        fixture_id: fixtureId,
        patch: z.string().min(1).describe('The corrected source or a unified diff'),
      }),
      execute: ({ patch }) => `Patch for ${CONFORMANCE_FIXTURE_ID} recorded (${patch.length} characters).`,
    }),
  ] as unknown as Tool[]
}

export const CONFORMANCE_SYSTEM =
  'You are being tested on tool use. Use only the tools provided, with arguments that match their schemas exactly.'

export const CONFORMANCE_PROMPT = [
  `Fixture "${CONFORMANCE_FIXTURE_ID}" has a failing test. Work in exactly this order, one tool call per step:`,
  `1. read_fixture with fixture_id "${CONFORMANCE_FIXTURE_ID}"`,
  `2. run_fixture_test with fixture_id "${CONFORMANCE_FIXTURE_ID}"`,
  `3. write_fixture_patch with fixture_id "${CONFORMANCE_FIXTURE_ID}" and a patch that fixes the failure`,
  'Never repeat a call and never go back to an earlier step. Then answer in one or two sentences: what was wrong and what you changed.',
].join('\n')
