export * from './planejamento.router';
export * from './equipamentos.router';
