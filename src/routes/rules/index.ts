export * from './agenda-regras.router';
export * from './feriados.router';
export * from './regras.router';
