/**
 * Every configuration var the tests run with, given to the pool as explicit bindings (vitest.config.ts).
 * The pool reads wrangler.toml and also the developer's `.dev.vars` (written by `npm run dev`, with
 * COOKIE_SECURE=false); explicit bindings win over both, so the tests never depend on either.
 * PUSH_ENDPOINT '' means "not set" (in-app notifications only).
 */
export const TEST_VARS = {
  JWT_SECRET: 'test-secret-for-vitest-only-0123456789abcdef',
  REGIOES: 'SP,MG',
  REGIAO_PADRAO: 'SP',
  CORS_ORIGINS: 'https://app.example.com',
  ACCESS_TOKEN_TTL_SECONDS: '900',
  REFRESH_TOKEN_TTL_SECONDS: '2592000',
  COOKIE_SECURE: 'true',
  COOKIE_SAMESITE: 'Lax',
  PUSH_ENDPOINT: '',
  // E-mail (D14): the log provider (the queue consumer runs in the pool); consumer tests swap in
  // `resend` at a fake URL with an injected fetch. No test reaches the network.
  MAIL_PROVIDER: 'log',
  MAIL_FROM: 'Equipe Teste <nao-responda@example.test>',
  APP_URL: 'https://app.example.com',
  RESEND_API_URL: 'https://resend.example.test',
  RESEND_API_KEY: 're_test_key',
  RESET_TOKEN_TTL_SECONDS: '1800',
  // Payments (D19). No access token here: the pool's own queue consumer (which gets the orders and
  // notifications the route tests enqueue) then calls nobody. The consumer tests bind MP_TEST_TOKEN
  // and inject a local fake of Mercado Pago (test/helpers/mercadopago.ts). No test reaches the network.
  PAYMENT_PROVIDER: 'mercadopago',
  MP_API_URL: 'https://mercadopago.example.test',
  MP_ACCESS_TOKEN: '',
  MP_WEBHOOK_SECRET: 'test-mp-webhook-secret',
  PEDIDO_TTL_SECONDS: '259200',
  // Calendar feeds (D16): urls on this origin, tokens derived with this key.
  API_URL: 'https://api.example.test',
  ICAL_TOKEN_SECRET: 'ical-test-secret-for-vitest-only-0123456789',
  // The activity log's chain key (D15): one key, version 1. Tests of rotation bind a keyring of their own.
  LOG_CHAIN_SECRET: 'log-chain-test-secret-for-vitest-only-0123456789',
  // WhatsApp (D30): the channel on, through the log provider (the pool's own consumer sends nothing);
  // the consumer tests swap in `cloud` at a fake URL with an injected fetch. No test reaches the network.
  WHATSAPP_PROVIDER: 'log',
  WHATSAPP_API_URL: 'https://graph.whatsapp.example.test/v21.0',
  WHATSAPP_PHONE_NUMBER_ID: '1065403522',
  WHATSAPP_TOKEN: 'test-wa-token',
  WHATSAPP_APP_SECRET: 'test-wa-app-secret',
  WHATSAPP_VERIFY_TOKEN: 'test-wa-verify-token',
  WHATSAPP_TEMPLATE_CONVITE: 'convite_evento',
  WHATSAPP_TEMPLATE_LEMBRETE: 'lembrete_evento',
  WHATSAPP_TEMPLATE_LOGISTICA: 'logistica_alterada',
  WHATSAPP_TEMPLATE_REPASSE: 'repasse_pago',
  WHATSAPP_TEMPLATE_IDIOMA: 'pt_BR',
  // Edge cache off (middleware/cached.ts): the Cache API is shared by every test file; its own test turns it on.
  EDGE_CACHE_TTL_SECONDS: '0',
  // QR check-in (docs/decisions.md#d27): the key the event keys and personal codes derive from.
  CHECKIN_SECRET: 'checkin-test-secret-for-vitest-only-0123456789',
  // Places (docs/decisions.md#d23): the same-city travel minutes.
  DESLOCAMENTO_MESMA_CIDADE_MIN: '40',
  // The margin beyond the travel between two accepted events (docs/decisions.md#d11).
  MARGEM_DESLOCAMENTO_MIN: '30',
  PLANEJAMENTO_HORIZONTE_DIAS: '120',
} as const;

/** The access token the payment consumer tests bind (see MP_ACCESS_TOKEN above). */
export const MP_TEST_TOKEN = 'TEST-mp-access-token';
