/**
 * The words people use for the enum values of spec §2.4, beyond the values' own spelling
 * (which enum-parse.ts accepts in any case, singular or plural). Keys are upper case with
 * separators removed (`EZ BAR` → `EZBAR`). A word standing for one value is accepted as that
 * value; a word standing for several (`back`) is answered with the choice.
 */
import type { EnumName, EnumValue } from './enums.js';

type Synonyms = { readonly [N in EnumName]: Readonly<Record<string, readonly EnumValue<N>[]>> };

/** Words grouped by the value(s) they stand for, in the order they are offered, as the table of each enum. */
function synonyms<N extends EnumName>(
  groups: ReadonlyArray<readonly [values: readonly EnumValue<N>[], words: readonly string[]]>,
): Record<string, readonly EnumValue<N>[]> {
  return Object.fromEntries(groups.flatMap(([values, words]) => words.map((word) => [word, values])));
}

export const ENUM_SYNONYMS: Synonyms = {
  Muscle: synonyms<'Muscle'>([
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
  ]),
  Category: synonyms<'Category'>([
    [['STRETCHING'], ['STRETCH', 'MOBILITY', 'FLEXIBILITY']],
    [['PLYOMETRICS'], ['PLYO', 'PLYOS', 'JUMPING']],
    [['OLYMPIC_WEIGHTLIFTING'], ['OLYMPIC', 'OLY', 'WEIGHTLIFTING']],
    [['POWERLIFTING'], ['POWER']],
    [['STRENGTH'], ['STRONG']],
    [['CARDIO'], ['CONDITIONING', 'AEROBIC']],
  ]),
  Force: synonyms<'Force'>([
    [['PULL'], ['PULLING']],
    [['PUSH'], ['PUSHING']],
    [['STATIC'], ['HOLD', 'ISOMETRIC']],
  ]),
  Level: synonyms<'Level'>([
    [['BEGINNER'], ['BEGINNERS', 'NOVICE', 'EASY']],
    [['INTERMEDIATE'], ['MEDIUM', 'MID']],
    [['EXPERT'], ['ADVANCED', 'HARD']],
  ]),
  Mechanic: synonyms<'Mechanic'>([
    [['COMPOUND'], ['COMPOUNDS', 'MULTIJOINT']],
    [['ISOLATION'], ['ISOLATED', 'SINGLEJOINT']],
  ]),
  Equipment: synonyms<'Equipment'>([
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
  ]),
};
