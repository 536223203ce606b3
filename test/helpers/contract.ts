/**
 * The contract check: every response a test receives through helpers/request.ts is held to the
 * OpenAPI document the app serves. The operation is found by method and path template; its status
 * must be one the document lists, and a JSON body must match that response's schema (JSON Schema
 * 2020-12, with the document's components). A response of a route the document does not describe
 * (/health, /docs, /openapi.json, unknown paths) is not checked.
 *
 * Validation runs inside workerd with @cfworker/json-schema, which interprets schemas: Ajv compiles
 * them to code with `new Function`, which workerd refuses ("Code generation from strings disallowed").
 */
import { Validator } from '@cfworker/json-schema';

interface Operation {
  method: string;
  template: string;
  re: RegExp;
  params: number;
  responses: Record<string, { content?: Record<string, { schema?: object }> }>;
}

interface Doc {
  paths: Record<string, Record<string, { responses: Operation['responses'] }>>;
  components?: object;
}

/** A path segment as a regex: a `{param}` matches any one segment. */
const segment = (s: string) => (s.startsWith('{') ? '[^/]+' : s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));

export interface Contract {
  operations: Operation[];
  components?: object;
  validators: Map<string, Validator>;
}

const contracts = new Map<string, Promise<Contract>>();

/**
 * The document of one configuration, loaded once per test file: `key` names the configuration
 * (the document lists the deployment's regions, and a test may run the app with others).
 */
export function loadContract(key: string, fetchDoc: () => Promise<Response>): Promise<Contract> {
  let contract = contracts.get(key);
  if (!contract) {
    contract = fetchDoc()
      .then((res) => res.json() as Promise<Doc>)
      .then((doc) => ({ operations: operationsOf(doc), components: doc.components, validators: new Map() }));
    contracts.set(key, contract);
  }
  return contract;
}

function operationsOf(doc: Doc): Operation[] {
  return (
    Object.entries(doc.paths)
      .flatMap(([template, item]) =>
        Object.entries(item).map(([method, op]) => ({
          method: method.toUpperCase(),
          template,
          re: new RegExp(`^${template.split('/').map(segment).join('/')}$`),
          params: (template.match(/\{/g) ?? []).length,
          responses: op.responses,
        })),
      )
      // A literal segment wins over a parameter (/api/profissionais/contagem before /{id}).
      .sort((a, b) => a.params - b.params)
  );
}

/** The documented operation of a request, if the document describes it. */
export function operationOf(contract: Contract, method: string, path: string) {
  const pathname = new URL(path, 'https://x').pathname;
  return contract.operations.find((op) => op.method === method.toUpperCase() && op.re.test(pathname));
}

/** Throws a readable error when the response is not what the document promises. */
export function checkResponse(
  contract: Contract,
  method: string,
  path: string,
  status: number,
  contentType: string | null,
  text: string,
) {
  const op = operationOf(contract, method, path);
  if (!op) return;
  const where = `${op.method} ${op.template}`;
  const documented = op.responses[String(status)] ?? op.responses.default;
  if (!documented) {
    throw new Error(
      `contract: ${method} ${path} answered ${status}, which the OpenAPI document does not list for ${where} ` +
        `(it lists ${Object.keys(op.responses).join(', ')}): ${text.slice(0, 200)}`,
    );
  }
  const schema = documented.content?.['application/json']?.schema;
  if (!schema) {
    if (text !== '' && contentType?.includes('json'))
      throw new Error(`contract: ${where} ${status} is documented without a body but answered ${text.slice(0, 200)}`);
    return;
  }
  // A route that also answers CSV (`Accept: text/csv`, the season planner) documents both.
  if (contentType?.startsWith('text/csv') && documented.content?.['text/csv']) return;
  if (!contentType?.includes('application/json'))
    throw new Error(
      `contract: ${where} ${status} is documented as JSON but answered ${contentType}: ${text.slice(0, 200)}`,
    );
  const key = `${where} ${status}`;
  let validator = contract.validators.get(key);
  if (!validator) {
    validator = new Validator({ ...schema, components: contract.components } as object, '2020-12', false);
    contract.validators.set(key, validator);
  }
  const result = validator.validate(JSON.parse(text));
  if (!result.valid) {
    const problems = result.errors
      .filter((e) => !/did not match|does not match (schema|unevaluated)/i.test(e.error) || result.errors.length < 3)
      .slice(0, 5)
      .map((e) => `${e.instanceLocation}: ${e.error}`)
      .join('; ');
    throw new Error(`contract: ${method} ${path} ${status} does not match the schema of ${where}: ${problems}`);
  }
}
