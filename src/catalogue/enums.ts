/** The enumerations of the service interface with their exact values: the one source of types, validation, filters and parsing. */

/** Every enum by the name used in messages. */
export const ENUMS = {
  Muscle: [
    'ABDOMINALS',
    'ADDUCTORS',
    'BICEPS',
    'CHEST',
    'CALVES',
    'LOWER_BACK',
    'TRICEPS',
    'FOREARMS',
    'ABDUCTORS',
    'HAMSTRINGS',
    'QUADRICEPS',
    'SHOULDERS',
    'MIDDLE_BACK',
    'GLUTES',
    'LATS',
    'TRAPS',
    'NECK',
  ],
  Category: ['STRENGTH', 'STRETCHING', 'PLYOMETRICS', 'STRONGMAN', 'POWERLIFTING', 'CARDIO', 'OLYMPIC_WEIGHTLIFTING'],
  Force: ['PULL', 'PUSH', 'STATIC'],
  Level: ['BEGINNER', 'INTERMEDIATE', 'EXPERT'],
  Mechanic: ['COMPOUND', 'ISOLATION'],
  Equipment: [
    'BODY_ONLY',
    'MACHINE',
    'OTHER',
    'FOAM_ROLL',
    'KETTLEBELLS',
    'DUMBBELL',
    'BARBELL',
    'CABLE',
    'BANDS',
    'MEDICINE_BALL',
    'E_Z_CURL_BAR',
    'EXERCISE_BALL',
  ],
} as const;

export type Muscle = (typeof ENUMS.Muscle)[number];
export type Category = (typeof ENUMS.Category)[number];
export type Force = (typeof ENUMS.Force)[number];
export type Level = (typeof ENUMS.Level)[number];
export type Mechanic = (typeof ENUMS.Mechanic)[number];
export type Equipment = (typeof ENUMS.Equipment)[number];

export type EnumName = keyof typeof ENUMS;
export type EnumValue<N extends EnumName> = (typeof ENUMS)[N][number];

/** The filters of /exercise/query that take enum values: parameter, enum, and whether several values are OR-ed. */
export const ENUM_FILTERS = [
  { param: 'primaryMuscle', enum: 'Muscle', array: false },
  { param: 'secondaryMuscle', enum: 'Muscle', array: false },
  { param: 'category', enum: 'Category', array: true },
  { param: 'force', enum: 'Force', array: true },
  { param: 'level', enum: 'Level', array: true },
  { param: 'mechanic', enum: 'Mechanic', array: true },
  { param: 'equipment', enum: 'Equipment', array: true },
] as const satisfies ReadonlyArray<{ param: string; enum: EnumName; array: boolean }>;

export type EnumFilterParam = (typeof ENUM_FILTERS)[number]['param'];
