// What adapter options accept from the optional peer SDKs, written out as structural types. The
// root entry's declarations then need no SDK installed (an app installs only the SDKs it uses and
// type-checks with skipLibCheck off); test/providers checks each SDK's own type still fits.

/** An `OpenAI` client of the `openai` SDK (also for `openaiCompatible`). */
export type OpenAIClient = { readonly apiKey: string | null; readonly chat: object; readonly responses: object }

/** `reasoningEffort` as the `openai` SDK's `ReasoningEffort`. */
export type OpenAIReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max' | null

/** An `Anthropic` client of `@anthropic-ai/sdk`. */
export type AnthropicClient = { readonly apiKey: string | null; readonly messages: object }

/** A `GoogleGenerativeAI` instance of `@google/generative-ai`. */
export type GeminiClient = { readonly apiKey: string; getGenerativeModel(...args: never[]): object }

/** A `BedrockRuntimeClient` of `@aws-sdk/client-bedrock-runtime`. */
export type BedrockClient = { send(command: never, ...rest: never[]): Promise<unknown>; readonly config: object }

/** AWS credentials as the AWS SDK takes them: static keys or a provider of them. */
export type AwsCredentials = {
  accessKeyId: string
  secretAccessKey: string
  sessionToken?: string
  credentialScope?: string
  expiration?: Date
  accountId?: string
}
export type BedrockCredentials = AwsCredentials | ((properties?: Record<string, unknown>) => Promise<AwsCredentials>)

/** An AI SDK 6 model (`LanguageModelV3` of `@ai-sdk/provider`). */
export type AiSdkModel = {
  readonly specificationVersion: 'v3'
  readonly provider: string
  readonly modelId: string
  doStream(options: never): PromiseLike<unknown>
}
