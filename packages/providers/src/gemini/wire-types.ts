// The Gemini v1beta wire shapes Nestor reads and writes. Declared here rather than taken from
// @google/generative-ai because its 0.24 types lack fields the API really uses (thoughtSignature,
// thought, functionCall.id, functionResponse.id, thoughtsTokenCount): these are the raw JSON shapes.

export type GeminiFunctionCall = { name: string; args?: Record<string, unknown>; id?: string }
export type GeminiFunctionResponse = { name: string; id?: string; response: Record<string, unknown> }

/** One part of a content. A signature belongs to the part it arrived on and must be replayed there. */
export type GeminiPart = {
  text?: string
  /** True for thought-summary text (not answer text). */
  thought?: boolean
  thoughtSignature?: string
  functionCall?: GeminiFunctionCall
  functionResponse?: GeminiFunctionResponse
  inlineData?: { mimeType: string; data: string }
  fileData?: { mimeType: string; fileUri: string }
}

export type GeminiContent = { role: 'user' | 'model'; parts: GeminiPart[] }

/** OpenAPI 3.0 subset the `parameters` field accepts (see convert-tools.ts). */
export type GeminiSchema = {
  type?: string
  format?: string
  description?: string
  nullable?: boolean
  enum?: string[]
  items?: GeminiSchema
  minItems?: number
  maxItems?: number
  properties?: Record<string, GeminiSchema>
  required?: string[]
  anyOf?: GeminiSchema[]
  minimum?: number
  maximum?: number
}

export type GeminiFunctionDeclaration = { name: string; description?: string; parameters?: GeminiSchema }
export type GeminiTool = { functionDeclarations: GeminiFunctionDeclaration[] }

export type GeminiToolConfig = {
  functionCallingConfig: { mode: 'AUTO' | 'ANY' | 'NONE'; allowedFunctionNames?: string[] }
}

export type GeminiUsageMetadata = {
  promptTokenCount?: number
  candidatesTokenCount?: number
  thoughtsTokenCount?: number
  cachedContentTokenCount?: number
  toolUsePromptTokenCount?: number
  totalTokenCount?: number
}

/** One streamed `GenerateContentResponse` chunk, as parsed JSON. */
export type GeminiChunk = {
  candidates?: {
    content?: { role?: string; parts?: GeminiPart[] }
    finishReason?: string
    finishMessage?: string
    index?: number
  }[]
  promptFeedback?: { blockReason?: string; blockReasonMessage?: string }
  usageMetadata?: GeminiUsageMetadata
  modelVersion?: string
  responseId?: string
}

/** The body Nestor asks the SDK to send. */
export type GeminiRequest = {
  contents: GeminiContent[]
  systemInstruction?: { parts: { text: string }[] }
  tools?: GeminiTool[]
  toolConfig?: GeminiToolConfig
  generationConfig?: Record<string, unknown>
}
