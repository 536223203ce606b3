import { instituicaoPresenter, vincularInstituicoes } from '../../services/catalogs/instituicoes';
import { handler } from '../route';
import { catalogHandlers } from './catalogs.handlers';
import * as r from './instituicoes.routes';
import { instituicoesConfig } from './instituicoes.schemas';

export const { list, publicList, create, update, remove } = catalogHandlers(instituicoesConfig, instituicaoPresenter);

export const vincular = handler(r.vincular, async (c, ctx) => c.json(await vincularInstituicoes(ctx), 200));
