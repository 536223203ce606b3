export * from './convites.router';
export * from './vagas.router';
