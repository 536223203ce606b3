export * from './catalogs.router';
export * from './tipos-eventos.router';
export * from './instituicoes.router';
