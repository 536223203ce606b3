/**
 * Word lists for the demo data (scripts/seed-lib.ts): Brazilian names, places, institutions,
 * courses, companies, functions and event types for the two regions, SP and MG.
 */

export type RegionInfo = {
  uf: string;
  /** City, its UF and phone area code; the first ones are drawn more often. */
  cities: { nome: string; uf: string; ddd: string; cep: string }[];
  institutions: { nome: string; cidade: string }[];
  venues: { nome: string; endereco: string }[];
  companySuffix: string[];
};

export const REGIONS: Record<'SP' | 'MG', RegionInfo> = {
  SP: {
    uf: 'SP',
    cities: [
      { nome: 'São Paulo', uf: 'SP', ddd: '11', cep: '01310' },
      { nome: 'Campinas', uf: 'SP', ddd: '19', cep: '13010' },
      { nome: 'Santos', uf: 'SP', ddd: '13', cep: '11010' },
      { nome: 'Ribeirão Preto', uf: 'SP', ddd: '16', cep: '14010' },
      { nome: 'Sorocaba', uf: 'SP', ddd: '15', cep: '18010' },
      { nome: 'São José dos Campos', uf: 'SP', ddd: '12', cep: '12210' },
      { nome: 'Guarulhos', uf: 'SP', ddd: '11', cep: '07010' },
      { nome: 'Santo André', uf: 'SP', ddd: '11', cep: '09010' },
      { nome: 'Bauru', uf: 'SP', ddd: '14', cep: '17010' },
      { nome: 'Piracicaba', uf: 'SP', ddd: '19', cep: '13400' },
    ],
    institutions: [
      { nome: 'Universidade de São Paulo (USP)', cidade: 'São Paulo' },
      { nome: 'Universidade Estadual de Campinas (Unicamp)', cidade: 'Campinas' },
      { nome: 'Pontifícia Universidade Católica de São Paulo (PUC-SP)', cidade: 'São Paulo' },
      { nome: 'Universidade Presbiteriana Mackenzie', cidade: 'São Paulo' },
      { nome: 'Universidade Federal de São Paulo (Unifesp)', cidade: 'São Paulo' },
      { nome: 'PUC-Campinas', cidade: 'Campinas' },
      { nome: 'Universidade Santa Cecília (Unisanta)', cidade: 'Santos' },
      { nome: 'Centro Universitário Barão de Mauá', cidade: 'Ribeirão Preto' },
      { nome: 'Universidade de Sorocaba (Uniso)', cidade: 'Sorocaba' },
      { nome: 'Universidade do Vale do Paraíba (Univap)', cidade: 'São José dos Campos' },
      { nome: 'Universidade Federal do ABC (UFABC)', cidade: 'Santo André' },
      { nome: 'Universidade Estadual Paulista (Unesp)', cidade: 'Bauru' },
      { nome: 'Escola Superior de Agricultura Luiz de Queiroz (Esalq)', cidade: 'Piracicaba' },
      { nome: 'Fundação Getulio Vargas (FGV EAESP)', cidade: 'São Paulo' },
      { nome: 'Insper', cidade: 'São Paulo' },
    ],
    venues: [
      { nome: 'Espaço das Américas', endereco: 'Rua Tagipuru, 795 - Barra Funda' },
      { nome: 'Clube Monte Líbano', endereco: 'Av. Indianópolis, 1.500 - Moema' },
      { nome: 'Villa Country', endereco: 'Av. Francisco Matarazzo, 774 - Água Branca' },
      { nome: 'Buffet Colonial', endereco: 'Rua Dr. Rafael de Barros, 60 - Paraíso' },
      { nome: 'Teatro Gazeta', endereco: 'Av. Paulista, 900 - Bela Vista' },
      { nome: 'Espaço Sírio', endereco: 'Av. Indianópolis, 1.192 - Moema' },
      { nome: 'Royal Palm Hall', endereco: 'Av. Royal Palm Plaza, 277 - Campinas' },
      { nome: 'Mendes Convention Center', endereco: 'Av. Francisco Glicério, 206 - Santos' },
      { nome: 'Centro de Eventos Taiwan', endereco: 'Av. Costábile Romano, 2.201 - Ribeirão Preto' },
      { nome: 'Auditório da Reitoria', endereco: 'Campus universitário' },
      { nome: 'Igreja Nossa Senhora do Brasil', endereco: 'Praça Nossa Senhora do Brasil, 1 - Jardim América' },
      { nome: 'Casa Petra', endereco: 'Rua Pedro Ernesto, 42 - Vila Olímpia' },
    ],
    companySuffix: ['Paulista', 'Campinas', 'Litoral', 'Interior', 'Capital', 'ABC'],
  },
  MG: {
    uf: 'MG',
    cities: [
      { nome: 'Belo Horizonte', uf: 'MG', ddd: '31', cep: '30130' },
      { nome: 'Uberlândia', uf: 'MG', ddd: '34', cep: '38400' },
      { nome: 'Juiz de Fora', uf: 'MG', ddd: '32', cep: '36010' },
      { nome: 'Contagem', uf: 'MG', ddd: '31', cep: '32010' },
      { nome: 'Montes Claros', uf: 'MG', ddd: '38', cep: '39400' },
      { nome: 'Ouro Preto', uf: 'MG', ddd: '31', cep: '35400' },
      { nome: 'Viçosa', uf: 'MG', ddd: '31', cep: '36570' },
      { nome: 'Uberaba', uf: 'MG', ddd: '34', cep: '38010' },
      { nome: 'Poços de Caldas', uf: 'MG', ddd: '35', cep: '37701' },
      { nome: 'Ipatinga', uf: 'MG', ddd: '31', cep: '35160' },
    ],
    institutions: [
      { nome: 'Universidade Federal de Minas Gerais (UFMG)', cidade: 'Belo Horizonte' },
      { nome: 'Pontifícia Universidade Católica de Minas Gerais (PUC Minas)', cidade: 'Belo Horizonte' },
      { nome: 'Universidade Federal de Uberlândia (UFU)', cidade: 'Uberlândia' },
      { nome: 'Universidade Federal de Juiz de Fora (UFJF)', cidade: 'Juiz de Fora' },
      { nome: 'Universidade Federal de Ouro Preto (UFOP)', cidade: 'Ouro Preto' },
      { nome: 'Universidade Federal de Viçosa (UFV)', cidade: 'Viçosa' },
      { nome: 'Universidade Estadual de Montes Claros (Unimontes)', cidade: 'Montes Claros' },
      { nome: 'Centro Universitário UNA', cidade: 'Belo Horizonte' },
      { nome: 'Faculdade de Ciências Médicas de Minas Gerais', cidade: 'Belo Horizonte' },
      { nome: 'Universidade de Uberaba (Uniube)', cidade: 'Uberaba' },
      { nome: 'Centro Federal de Educação Tecnológica (CEFET-MG)', cidade: 'Belo Horizonte' },
      { nome: 'Universidade Federal do Triângulo Mineiro (UFTM)', cidade: 'Uberaba' },
    ],
    venues: [
      { nome: 'Minascentro', endereco: 'Av. Augusto de Lima, 785 - Centro' },
      { nome: 'Expominas', endereco: 'Av. Amazonas, 6.030 - Gameleira' },
      { nome: 'Mineirinho', endereco: 'Av. Antônio Abrahão Caram, 1.000 - Pampulha' },
      { nome: 'Automóvel Clube de Minas Gerais', endereco: 'Av. Afonso Pena, 1.394 - Centro' },
      { nome: 'Center Convention Uberlândia', endereco: 'Av. João Naves de Ávila, 1.331 - Tibery' },
      { nome: 'Cine-Theatro Central', endereco: 'Praça João Pessoa, s/n - Juiz de Fora' },
      { nome: 'Centro de Convenções de Ouro Preto', endereco: 'Rua Diogo de Vasconcelos, 328 - Pilar' },
      { nome: 'Igreja São José', endereco: 'Rua Tupis, 164 - Centro' },
      { nome: 'Espaço Meet', endereco: 'Rua Professor Estevão Pinto, 1.150 - Serra' },
      { nome: 'Auditório da Reitoria', endereco: 'Campus universitário' },
    ],
    companySuffix: ['Minas', 'BH', 'Triângulo', 'Zona da Mata', 'Gerais', 'Norte de Minas'],
  },
};

export const COMPANY_BASES = [
  'Formaturas Ápice', 'Studio Lumière', 'Foco Formaturas', 'Colação & Cia', 'Click Eventos', 'Memória Viva',
  'Canudo de Ouro', 'Beca Produções', 'Primeira Fila Eventos', 'Laço Azul Formaturas', 'Objetiva Formaturas',
  'Flash Formaturas', 'Horizonte Eventos', 'Turma Feliz', 'Momentos Formaturas', 'Prisma Fotografia',
  'Quadro Eventos', 'Estrela Formaturas', 'Celebrar Produções', 'Retrato Fiel',
];

export const COURSES = [
  'Medicina', 'Direito', 'Engenharia Civil', 'Administração', 'Arquitetura e Urbanismo', 'Odontologia',
  'Psicologia', 'Enfermagem', 'Ciências Contábeis', 'Engenharia de Produção', 'Fisioterapia', 'Farmácia',
  'Nutrição', 'Medicina Veterinária', 'Pedagogia', 'Educação Física', 'Publicidade e Propaganda', 'Jornalismo',
  'Engenharia Mecânica', 'Engenharia Elétrica', 'Ciência da Computação', 'Sistemas de Informação',
  'Engenharia Química', 'Biomedicina', 'Relações Internacionais', 'Economia', 'Letras', 'História',
  'Ciências Biológicas', 'Agronomia', 'Design', 'Matemática', 'Física', 'Química', 'Geografia',
  'Engenharia Ambiental', 'Zootecnia', 'Fonoaudiologia', 'Terapia Ocupacional', 'Serviço Social',
  'Turismo', 'Gastronomia', 'Cinema e Audiovisual', 'Música', 'Filosofia', 'Ciências Sociais',
  'Engenharia de Software', 'Estatística', 'Moda', 'Radiologia',
];

/** Professional functions with a base price per event in BRL, and what the equipment list looks like. */
export const FUNCTIONS: { nome: string; base: number; equipamentos: string[] }[] = [
  { nome: 'Fotógrafo', base: 380, equipamentos: ['Canon EOS R6, 24-70mm f/2.8, flash Godox V1', 'Nikon Z6 II, 70-200mm f/2.8, dois flashes', 'Sony A7 IV, 35mm f/1.4, 85mm f/1.8'] },
  { nome: 'Cinegrafista', base: 450, equipamentos: ['Sony FX3, gimbal DJI RS3, microfone Rode', 'Canon C70, tripé Manfrotto, luz LED', 'Panasonic GH6, slider, lapela sem fio'] },
  { nome: 'Recepcionista', base: 180, equipamentos: ['Uniforme social', 'Tablet para lista de presença'] },
  { nome: 'Operador de Drone', base: 520, equipamentos: ['DJI Mavic 3 Pro, baterias extras', 'DJI Air 3, licença ANAC/DECEA'] },
  { nome: 'Editor de Vídeo', base: 300, equipamentos: ['Notebook com DaVinci Resolve', 'Estação de edição com Premiere Pro'] },
  { nome: 'Assistente de Fotografia', base: 200, equipamentos: ['Rebatedor 5 em 1, tripé de iluminação', 'Softbox portátil'] },
  { nome: 'Operador de Plataforma 360', base: 350, equipamentos: ['Plataforma 360 de 1 m, ring light', 'Plataforma 360 com iPhone 15 Pro'] },
  { nome: 'Tratamento de Imagem', base: 260, equipamentos: ['Lightroom e Photoshop, monitor calibrado'] },
];

export const EVENT_TYPE_BASES: { nome: string; factor: number }[] = [
  { nome: 'Colação de Grau', factor: 1 },
  { nome: 'Baile de Formatura', factor: 1.6 },
  { nome: 'Culto Ecumênico', factor: 0.7 },
  { nome: 'Missa de Formatura', factor: 0.7 },
  { nome: 'Aula da Saudade', factor: 0.6 },
  { nome: 'Jantar de Formatura', factor: 1.2 },
  { nome: 'Ensaio Fotográfico da Turma', factor: 0.8 },
  { nome: 'Churrasco de Formatura', factor: 0.9 },
  { nome: 'Festa à Fantasia', factor: 1.1 },
  { nome: 'Trote Solidário', factor: 0.5 },
];
export const EVENT_TYPE_VARIANTS: { sufixo: string; factor: number }[] = [
  { sufixo: '', factor: 1 },
  { sufixo: ' Premium', factor: 1.4 },
  { sufixo: ' Compacto', factor: 0.8 },
  { sufixo: ' Noturno', factor: 1.15 },
];

export const SERVICE_TYPES = [
  'Cobertura Fotográfica', 'Filmagem', 'Álbum de Formatura', 'Estúdio Fotográfico', 'Ponto de Foto', 'Cabine de Fotos',
  'Transmissão ao Vivo', 'Vídeo Clipe da Turma',
];

export const FIRST_NAMES = [
  'Ana', 'Beatriz', 'Bruna', 'Camila', 'Carolina', 'Daniela', 'Fernanda', 'Gabriela', 'Isabela', 'Juliana',
  'Larissa', 'Letícia', 'Mariana', 'Natália', 'Patrícia', 'Rafaela', 'Renata', 'Tatiane', 'Vanessa', 'Vitória',
  'André', 'Bruno', 'Carlos', 'Diego', 'Eduardo', 'Felipe', 'Gabriel', 'Gustavo', 'Henrique', 'João',
  'José', 'Leonardo', 'Lucas', 'Marcelo', 'Mateus', 'Paulo', 'Pedro', 'Rafael', 'Rodrigo', 'Thiago',
];

export const SURNAMES = [
  'Silva', 'Santos', 'Oliveira', 'Souza', 'Rodrigues', 'Ferreira', 'Alves', 'Pereira', 'Lima', 'Gomes',
  'Costa', 'Ribeiro', 'Martins', 'Carvalho', 'Almeida', 'Lopes', 'Soares', 'Fernandes', 'Vieira', 'Barbosa',
  'Rocha', 'Dias', 'Nascimento', 'Andrade', 'Moreira', 'Nunes', 'Marques', 'Machado', 'Mendes', 'Freitas',
  'Cardoso', 'Ramos', 'Gonçalves', 'Santana', 'Teixeira', 'Araújo', 'Pinto', 'Castro', 'Campos', 'Moura',
];

export const BANKS = ['Itaú Unibanco', 'Bradesco', 'Banco do Brasil', 'Caixa Econômica Federal', 'Nubank', 'Santander', 'Banco Inter', 'Sicoob'];

export const STREETS = [
  'Rua das Flores', 'Av. Brasil', 'Rua Sete de Setembro', 'Rua Tiradentes', 'Av. Getúlio Vargas', 'Rua XV de Novembro',
  'Rua Santos Dumont', 'Av. Afonso Pena', 'Rua da Bahia', 'Rua Augusta', 'Rua Bela Cintra', 'Av. Amazonas',
];

export const EVENT_NOTES = [
  'Turma pediu fotos individuais no palco.',
  'Entrada dos formandos às 19h; chegar 1h antes.',
  'Levar fundo infinito para o ponto de foto.',
  'Homenagem aos pais no meio da cerimônia.',
  'Cerimônia com transmissão ao vivo para familiares.',
  'Confirmar lista de formandos com a comissão.',
];

export const LOGISTICS_NOTES = [
  'Estacionamento conveniado no local.',
  'Carga e descarga pela entrada lateral.',
  'Van sai da base às 16h.',
  'Montagem do estúdio a partir das 14h.',
  'Hospedagem reservada para a equipe.',
];

export const FOT_NOTES = [
  'Comissão de formatura com 6 integrantes.',
  'Contrato assinado com pacote completo.',
  'Turma interessada em álbum premium.',
  'Pré-venda aberta até o fim do semestre.',
  'Pagamento parcelado em 12 vezes.',
];

export const TIMES = ['08:00', '09:00', '09:30', '10:00', '14:00', '15:30', '16:00', '18:00', '18:30', '19:00', '19:30', '20:00', '21:00', '22:00'];
