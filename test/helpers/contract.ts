import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type MediaDoc = { schema?: Record<string, unknown> };
type ResponseDoc = { description: string; content?: Record<string, MediaDoc> };
type OperationDoc = { operationId: string; responses: Record<string, ResponseDoc> };
type OpenApiDocument = { paths: Record<string, Record<string, OperationDoc>>; components?: Record<string, unknown> };

type Template = { path: string; pattern: RegExp; parameters: number };

/**
 * The API's own OpenAPI document turned into a check of every answer the tests receive: the
 * status must be documented for its operation, and the body must match the documented schema (or
 * be empty when none is documented). So the document cannot lie about what the code answers.
 * Requests to paths the document does not name (unknown routes, the docs pages) are not checked.
 */
export class ResponseContract {
  private readonly document: OpenApiDocument;
  private readonly templates: Template[];
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(document: OpenApiDocument) {
    this.document = document;
    (addFormats as unknown as (ajv: Ajv2020) => void)(this.ajv);
    // Literal segments first, so `/v1/sessions/current` wins over `/v1/sessions/{id}`.
    this.templates = Object.keys(document.paths)
      .map((path) => ({
        path,
        pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
        parameters: (path.match(/\{/g) ?? []).length,
      }))
      .sort((a, b) => a.parameters - b.parameters);
  }

  /** Throws an error naming the operation, the status and what does not match. */
  check(method: string, url: string, status: number, contentType: string | null, text: string, body: unknown): void {
    const path = new URL(url, 'http://contract.invalid').pathname;
    const template = this.templates.find((candidate) => candidate.pattern.test(path));
    if (!template) return;
    const operation = this.document.paths[template.path]![method.toLowerCase()];
    // A method the path does not have is answered by the surface's fallback (404), outside any operation.
    if (!operation) return;
    const where = `${method} ${template.path} (${operation.operationId}) answered ${status}`;
    const response = operation.responses[String(status)];
    if (!response)
      throw new Error(
        `${where}, a status its OpenAPI operation does not document (documented: ${Object.keys(operation.responses).join(', ')}); body: ${text.slice(0, 300)}`,
      );
    const schema = response.content?.['application/json']?.schema;
    if (!schema) {
      // A documented file (binary) answer: its content type must be the documented one; bytes have no schema.
      const binary = Object.keys(response.content ?? {});
      if (binary.length > 0) {
        if (!binary.some((type) => contentType?.split(';')[0]?.trim() === type))
          throw new Error(`${where} with content type ${contentType ?? 'none'}, documented as ${binary.join(' or ')}`);
        return;
      }
      if (text !== '') throw new Error(`${where} with a body, but the document gives that answer no content; body: ${text.slice(0, 300)}`);
      return;
    }
    if (!contentType?.includes('application/json')) throw new Error(`${where} with content type ${contentType ?? 'none'}, documented as application/json`);
    const key = JSON.stringify(schema);
    let validate = this.validators.get(key);
    if (!validate) {
      // The document's components travel along, so `#/components/schemas/...` references resolve.
      validate = this.ajv.compile({ ...schema, components: this.document.components });
      this.validators.set(key, validate);
    }
    if (!validate(body)) {
      const problems = (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`).join('; ');
      throw new Error(`${where} with a body that does not match its documented schema: ${problems}; body: ${text.slice(0, 500)}`);
    }
  }
}

const contracts = new Map<string, Promise<ResponseContract>>();

/** The contract of the API at `baseUrl`, read once from its /openapi.json. */
export function contractOf(baseUrl: string): Promise<ResponseContract> {
  let contract = contracts.get(baseUrl);
  if (!contract) {
    contract = fetch(`${baseUrl}/openapi.json`).then(async (reply) => {
      if (reply.status !== 200) throw new Error(`GET ${baseUrl}/openapi.json answered ${reply.status}`);
      return new ResponseContract((await reply.json()) as OpenApiDocument);
    });
    contracts.set(baseUrl, contract);
  }
  return contract;
}
