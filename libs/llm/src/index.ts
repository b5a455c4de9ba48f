export {
  createChatClient,
  type ChatClient,
  type ChatClientDeps,
  type ChatCompletion,
  type ChatRequest,
  type JsonChatCompletion,
  type JsonChatRequest,
  type JsonParse,
  parseJsonReply,
} from './chat.js';
export { llmEnvSchema, loadLlmConfig, toLlmConfig, type LlmChatConfig, type LlmConfig, type LlmEnv } from './config.js';
export { LlmError, type LlmErrorCode, type LlmErrorOptions } from './errors.js';
export {
  startLlmStub,
  type LlmStub,
  type StubHandler,
  type StubHandlerRequest,
  type StubReply,
  type StubRequest,
} from './stub-server.js';
export type { ChatMessage, LlmExchange } from './types.js';
export { cosine, createEmbeddingClient, createLocalEmbedder, type Embedder, type EmbeddingClientConfig } from './embeddings.js';
