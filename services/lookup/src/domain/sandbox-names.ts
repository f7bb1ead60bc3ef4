/**
 * Small name lists for the sandbox name enquiry: plausible holder names per corridor, picked by hash so
 * the same destination always gets the same name. Synthetic; any likeness to real people is chance.
 */

export interface NameList {
  readonly first: readonly string[];
  readonly last: readonly string[];
  /** VN writes the family name first. */
  readonly familyNameFirst?: boolean;
}

const SPANISH: NameList = {
  first: [
    "Lucía",
    "Mateo",
    "Valentina",
    "Santiago",
    "Camila",
    "Sebastián",
    "Sofía",
    "Martín",
    "Isabella",
    "Diego",
    "Florencia",
    "Joaquín",
  ],
  last: [
    "García",
    "Rodríguez",
    "Fernández",
    "López",
    "Martínez",
    "Gómez",
    "Pérez",
    "Sánchez",
    "Romero",
    "Torres",
    "Flores",
    "Quispe",
    "Mamani",
    "Vargas",
  ],
};

const PORTUGUESE: NameList = {
  first: [
    "Ana",
    "João",
    "Maria",
    "Pedro",
    "Beatriz",
    "Lucas",
    "Juliana",
    "Gabriel",
    "Fernanda",
    "Rafael",
    "Larissa",
    "Thiago",
  ],
  last: [
    "Silva",
    "Santos",
    "Oliveira",
    "Souza",
    "Pereira",
    "Costa",
    "Rodrigues",
    "Almeida",
    "Nascimento",
    "Lima",
    "Carvalho",
    "Ferreira",
  ],
};

const NIGERIAN: NameList = {
  first: [
    "Chinedu",
    "Ngozi",
    "Adebayo",
    "Funmilayo",
    "Emeka",
    "Aisha",
    "Tunde",
    "Chiamaka",
    "Ibrahim",
    "Folake",
  ],
  last: ["Okafor", "Adeyemi", "Balogun", "Eze", "Nwosu", "Bello", "Okonkwo", "Ogunleye", "Abubakar", "Obi"],
};

const GHANAIAN: NameList = {
  first: ["Kwame", "Ama", "Kofi", "Akosua", "Yaw", "Abena", "Kojo", "Efua", "Kwabena", "Adwoa"],
  last: ["Mensah", "Owusu", "Boateng", "Asante", "Appiah", "Osei", "Agyeman", "Darko", "Acheampong", "Ofori"],
};

const ZAMBIAN: NameList = {
  first: [
    "Mwila",
    "Chanda",
    "Bwalya",
    "Mutale",
    "Chileshe",
    "Natasha",
    "Joseph",
    "Mercy",
    "Kelvin",
    "Precious",
  ],
  last: ["Banda", "Phiri", "Mwanza", "Tembo", "Zulu", "Mulenga", "Lungu", "Sakala", "Chola", "Kabwe"],
};

const VIETNAMESE: NameList = {
  first: [
    "VAN AN",
    "THI BINH",
    "MINH CHAU",
    "VAN DUNG",
    "THI HOA",
    "QUOC KHANH",
    "THI LINH",
    "DUC MINH",
    "HOANG NAM",
    "THI PHUONG",
  ],
  last: ["NGUYEN", "TRAN", "LE", "PHAM", "HOANG", "VU", "DANG", "BUI", "DO", "NGO"],
  familyNameFirst: true,
};

export const PERSON_NAMES: Readonly<Record<string, NameList>> = {
  AR: SPANISH,
  BO: SPANISH,
  CO: SPANISH,
  PE: SPANISH,
  BR: PORTUGUESE,
  NG: NIGERIAN,
  GH: GHANAIAN,
  ZM: ZAMBIAN,
  VN: VIETNAMESE,
};

/** Brazilian company names for CNPJ keys: a surname and one of these. */
export const BR_COMPANY_SUFFIXES: readonly string[] = [
  "Comércio Ltda",
  "Serviços Ltda",
  "Distribuidora Ltda",
  "Tecnologia S.A.",
];

/** KE/TZ/UG merchant display names: a Swahili word and a kind of shop. */
export const MERCHANT_NAMES = {
  first: ["Baraka", "Neema", "Upendo", "Jamii", "Amani", "Tumaini", "Kilele", "Mwangaza", "Faraja", "Zawadi"],
  last: [
    "General Stores",
    "Hardware",
    "Pharmacy",
    "Supermarket",
    "Electronics",
    "Butchery",
    "Wholesalers",
    "Cafe",
    "Enterprises",
    "Agrovet",
  ],
} as const;
