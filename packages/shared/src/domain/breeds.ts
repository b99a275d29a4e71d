/**
 * Breeds the heat-risk model knows (docs/heat-risk.md "Breed"): skull shape, and for the
 * breeds UK primary-care records put far above the average dog for heat-related illness, a
 * risk class. An owner's free-text breed is matched against names and common aliases, so
 * "Frenchie" or "French Bulldog cross" is covered without a new question.
 */

/** Skull shape: flat-faced (brachycephalic), medium, or long and narrow (dolichocephalic). */
export type Skull = 'brachycephalic' | 'mesocephalic' | 'dolichocephalic';
/** Published heat-illness risk far above the average dog ('very-high'), or above it. */
export type BreedRisk = 'very-high' | 'high' | null;

export interface Breed {
  name: string;
  skull: Skull;
  risk: BreedRisk;
  aliases?: readonly string[];
}

const B = (
  name: string,
  skull: Skull,
  risk: BreedRisk = null,
  aliases: readonly string[] = [],
): Breed => ({ name, skull, risk, aliases });

/** The table, alphabetical. Names are what the pet sheet offers. */
export const BREEDS: readonly Breed[] = [
  B('Affenpinscher', 'brachycephalic'),
  B('Afghan Hound', 'dolichocephalic'),
  B('Akita', 'mesocephalic'),
  B('Alaskan Malamute', 'mesocephalic', null, ['malamute']),
  B('American Bulldog', 'mesocephalic'),
  B('Australian Shepherd', 'mesocephalic', null, ['aussie']),
  B('Basset Hound', 'mesocephalic'),
  B('Beagle', 'mesocephalic'),
  B('Bernese Mountain Dog', 'mesocephalic', null, ['bernese']),
  B('Bichon Frise', 'mesocephalic', null, ['bichon']),
  B('Border Collie', 'mesocephalic'),
  B('Border Terrier', 'mesocephalic'),
  B('Borzoi', 'dolichocephalic'),
  B('Boston Terrier', 'brachycephalic', null, ['boston']),
  B('Boxer', 'brachycephalic'),
  B('Brussels Griffon', 'brachycephalic', null, ['griffon bruxellois']),
  B('Bulldog', 'brachycephalic', 'very-high', [
    'english bulldog',
    'british bulldog',
    'old english bulldog',
  ]),
  B('Bullmastiff', 'brachycephalic'),
  B('Cairn Terrier', 'mesocephalic'),
  B('Cavalier King Charles Spaniel', 'brachycephalic', 'high', [
    'cavalier',
    'cavalier king charles',
    'cavapoo',
  ]),
  B('Chihuahua', 'mesocephalic'),
  B('Chow Chow', 'brachycephalic', 'very-high', ['chow']),
  B('Cocker Spaniel', 'mesocephalic', null, ['cocker', 'cockapoo']),
  B('Dachshund', 'mesocephalic', null, ['sausage dog', 'doxie']),
  B('Dalmatian', 'mesocephalic'),
  B('Dobermann', 'mesocephalic', null, ['doberman', 'doberman pinscher']),
  B('Dogue de Bordeaux', 'brachycephalic', null, ['french mastiff']),
  B('English Springer Spaniel', 'mesocephalic', null, ['springer spaniel', 'springer']),
  B('French Bulldog', 'brachycephalic', 'very-high', [
    'frenchie',
    'french bull dog',
    'bulldog francais',
    'bouledogue francais',
  ]),
  B('German Shepherd', 'mesocephalic', null, ['german shepherd dog', 'gsd', 'alsatian']),
  B('Golden Retriever', 'mesocephalic', 'high', ['golden', 'goldendoodle']),
  B('Great Dane', 'mesocephalic'),
  B('Greyhound', 'dolichocephalic', 'high'),
  B('Italian Greyhound', 'dolichocephalic', null, ['iggy']),
  B('Jack Russell Terrier', 'mesocephalic', null, ['jack russell', 'jrt']),
  B('Japanese Chin', 'brachycephalic'),
  B('King Charles Spaniel', 'brachycephalic', null, ['english toy spaniel']),
  B('Labrador Retriever', 'mesocephalic', null, ['labrador', 'lab', 'labradoodle']),
  B('Lhasa Apso', 'brachycephalic'),
  B('Maltese', 'mesocephalic'),
  B('Mastiff', 'brachycephalic', null, ['english mastiff']),
  B('Miniature Schnauzer', 'mesocephalic', null, ['schnauzer']),
  B('Newfoundland', 'mesocephalic', null, ['newfie']),
  B('Pekingese', 'brachycephalic', null, ['peke', 'pekinese']),
  B('Pomeranian', 'mesocephalic'),
  B('Poodle', 'mesocephalic', null, ['standard poodle', 'toy poodle', 'miniature poodle']),
  B('Pug', 'brachycephalic', 'high', ['puggle']),
  B('Rottweiler', 'mesocephalic', null, ['rottie']),
  B('Rough Collie', 'dolichocephalic', null, ['collie']),
  B('Saint Bernard', 'mesocephalic', null, ['st bernard']),
  B('Saluki', 'dolichocephalic'),
  B('Shar Pei', 'brachycephalic', null, ['shar-pei', 'chinese shar pei']),
  B('Shih Tzu', 'brachycephalic', null, ['shihtzu', 'shih-tzu']),
  B('Siberian Husky', 'mesocephalic', null, ['husky']),
  B('Staffordshire Bull Terrier', 'mesocephalic', null, ['staffy', 'staffie', 'staffordshire']),
  B('West Highland White Terrier', 'mesocephalic', null, ['westie']),
  B('Whippet', 'dolichocephalic'),
  B('Yorkshire Terrier', 'mesocephalic', null, ['yorkie']),
];

const normalise = (text: string) =>
  ` ${text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z]+/g, ' ')
    .trim()} `;

/** Every name and alias, longest first, so "french bulldog" wins over "bulldog". */
const NAMES: readonly { key: string; breed: Breed }[] = BREEDS.flatMap((breed) =>
  [breed.name, ...(breed.aliases ?? [])].map((n) => ({ key: normalise(n), breed })),
).sort((a, b) => b.key.length - a.key.length);

/** Of two breeds a text names, the one at higher heat risk counts. */
const riskRank = (b: Breed) =>
  b.risk === 'very-high' ? 3 : b.risk === 'high' ? 2 : b.skull === 'brachycephalic' ? 1 : 0;

/**
 * The breed an owner's text names, as whole words ("Frenchie", "french bulldog x"), or null
 * when none (unknown = neutral). A name is read longest first, so "American Bulldog" is not a
 * Bulldog; of a cross ("Pug x Labrador") the parent at higher heat risk counts.
 */
export function matchBreed(text: string | null | undefined): Breed | null {
  if (!text) return null;
  let words = normalise(text);
  let found: Breed | null = null;
  for (const { key, breed } of NAMES) {
    if (!words.includes(key)) continue;
    words = words.replaceAll(key, ' ');
    if (!found || riskRank(breed) > riskRank(found)) found = breed;
  }
  return found;
}
