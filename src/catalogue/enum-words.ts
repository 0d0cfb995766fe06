/**
 * The enum values as people type them, in one place for completion and `--help`, and the everyday words
 * beyond them (keyed upper case, separators removed): one standing for a value is taken as it; one
 * standing for several (`back`) is answered with the choice.
 */
import { ENUMS, type EnumName, type EnumValue } from './enums.js';
import { orList } from './suggest.js';

/** An enum value as people type it: lower case, words apart, single letters joined (`E_Z_CURL_BAR` → `ez curl bar`). */
export function friendlyEnumValue(value: string): string {
  // An underscore between two one-letter parts goes; every other one becomes a space.
  return value
    .toLowerCase()
    .replace(/(?<=(?:^|_)[a-z])_(?=[a-z](?:_|$))/g, '')
    .replace(/_/g, ' ');
}

/** How many synonyms help names: enough to show everyday words work. */
const HELP_SYNONYMS = 5;

/** A few everyday words help mentions for an enum: one per value, standing for it alone and not just another form of it. */
function helpSynonyms(name: EnumName): string[] {
  const seen = new Set<string>();
  const words: string[] = [];
  for (const [word, values] of Object.entries(enumSynonyms(name)) as [string, readonly string[]][]) {
    const value = values[0]!;
    const bare = value.replace(/_/g, '');
    if (values.length !== 1 || seen.has(value) || word.startsWith(bare) || bare.startsWith(word)) continue;
    seen.add(value);
    words.push(word.toLowerCase());
  }
  return words.slice(0, HELP_SYNONYMS);
}

/** The list a flag's help gives for an enum: `a, b or c (also x, y…)`. */
export function enumHelpList(name: EnumName): string {
  // The friendly spelling, alphabetical.
  const list = orList((ENUMS[name] as readonly string[]).map(friendlyEnumValue).sort());
  const synonyms = helpSynonyms(name);
  return synonyms.length ? `${list} (also everyday words such as ${synonyms.join(', ')})` : list;
}

/** Per enum, words grouped by the value(s) they stand for, in the order they are offered. */
const SYNONYM_GROUPS: { readonly [N in EnumName]: ReadonlyArray<readonly [values: readonly EnumValue<N>[], words: readonly string[]]> } = {
  Muscle: [
    [['ABDOMINALS'], ['ABS', 'AB', 'CORE', 'STOMACH', 'BELLY', 'OBLIQUES']],
    [['LOWER_BACK', 'MIDDLE_BACK', 'LATS'], ['BACK']],
    [['MIDDLE_BACK', 'TRAPS', 'LATS'], ['UPPERBACK']],
    [['LOWER_BACK'], ['LOWERBACK']],
    [['MIDDLE_BACK'], ['MIDBACK']],
    [['LATS'], ['LATISSIMUS', 'LATISSIMUSDORSI']],
    [['TRAPS'], ['TRAPEZIUS']],
    [['SHOULDERS'], ['SHOULDER', 'DELTS', 'DELT', 'DELTOIDS', 'DELTOID']],
    [['BICEPS'], ['BI', 'BIS']],
    [['TRICEPS'], ['TRI', 'TRIS']],
    [
      ['BICEPS', 'TRICEPS', 'FOREARMS'],
      ['ARMS', 'ARM'],
    ],
    [['CHEST'], ['PECS', 'PEC', 'PECTORALS', 'PECTORAL', 'BREAST']],
    [['QUADRICEPS'], ['QUADS', 'QUAD']],
    [['QUADRICEPS', 'HAMSTRINGS', 'ADDUCTORS', 'ABDUCTORS'], ['THIGHS']],
    [['HAMSTRINGS'], ['HAMS', 'HAMMIES']],
    [['CALVES'], ['CALF']],
    [['GLUTES'], ['GLUTEUS', 'BUTT', 'BUM']],
    [
      ['QUADRICEPS', 'HAMSTRINGS', 'CALVES', 'GLUTES'],
      ['LEGS', 'LEG'],
    ],
    [['ADDUCTORS'], ['INNERTHIGH', 'INNERTHIGHS']],
    [['ABDUCTORS'], ['OUTERTHIGH', 'OUTERTHIGHS']],
    [['ABDUCTORS', 'ADDUCTORS', 'GLUTES'], ['HIPS']],
    [['FOREARMS'], ['WRIST', 'WRISTS', 'GRIP']],
  ],
  Category: [
    [['STRETCHING'], ['STRETCH', 'MOBILITY', 'FLEXIBILITY']],
    [['PLYOMETRICS'], ['PLYO', 'PLYOS', 'JUMPING']],
    [['OLYMPIC_WEIGHTLIFTING'], ['OLYMPIC', 'OLY', 'WEIGHTLIFTING']],
    [['POWERLIFTING'], ['POWER']],
    [['STRENGTH'], ['STRONG']],
    [['CARDIO'], ['CONDITIONING', 'AEROBIC']],
  ],
  Force: [
    [['PULL'], ['PULLING']],
    [['PUSH'], ['PUSHING']],
    [['STATIC'], ['HOLD', 'ISOMETRIC']],
  ],
  Level: [
    [['BEGINNER'], ['BEGINNERS', 'NOVICE', 'EASY']],
    [['INTERMEDIATE'], ['MEDIUM', 'MID']],
    [['EXPERT'], ['ADVANCED', 'HARD']],
  ],
  Mechanic: [
    [['COMPOUND'], ['COMPOUNDS', 'MULTIJOINT']],
    [['ISOLATION'], ['ISOLATED', 'SINGLEJOINT']],
  ],
  Equipment: [
    [['E_Z_CURL_BAR'], ['EZBAR', 'EZCURLBAR', 'EZ', 'CURLBAR']],
    [['BODY_ONLY'], ['BODYWEIGHT', 'BODY', 'NONE', 'NOEQUIPMENT', 'CALISTHENICS']],
    [['DUMBBELL'], ['DUMBELL', 'DUMBELLS', 'DB']],
    [['BARBELL'], ['BB']],
    [['KETTLEBELLS'], ['KB', 'KETTLEBELL']],
    [['BANDS'], ['BAND', 'RESISTANCEBAND', 'RESISTANCEBANDS']],
    [['CABLE'], ['CABLES']],
    [['FOAM_ROLL'], ['FOAMROLLER', 'ROLLER']],
    [['MEDICINE_BALL'], ['MEDBALL']],
    [['EXERCISE_BALL'], ['SWISSBALL', 'STABILITYBALL', 'YOGABALL', 'GYMBALL']],
    [['MACHINE'], ['MACHINES', 'SMITHMACHINE']],
  ],
};

const built = new Map<EnumName, Readonly<Record<string, readonly string[]>>>();

/** Enum `name`'s words with the value(s) each stands for, built on first use. */
export function enumSynonyms<N extends EnumName>(name: N): Readonly<Record<string, readonly EnumValue<N>[]>> {
  let table = built.get(name);
  if (!table) {
    const groups = SYNONYM_GROUPS[name] as ReadonlyArray<readonly [readonly string[], readonly string[]]>;
    table = Object.fromEntries(groups.flatMap(([values, words]) => words.map((word) => [word, values])));
    built.set(name, table);
  }
  return table as Readonly<Record<string, readonly EnumValue<N>[]>>;
}
