export * from './admin-users.router';
export * from './auth.router';
export * from './password-reset.router';
export * from './canais.router';
