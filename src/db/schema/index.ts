export * from './catalogs';
export * from './users';
export * from './auth';
export * from './profissionais';
export * from './cadastro-fot';
export * from './agenda';
export * from './notifications';
export * from './convites';
