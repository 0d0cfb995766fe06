/**
 * The sample catalogue's exercises, written for this project. `generate-sample.mjs` turns
 * them into sample/exercises.jsonl (ids derived from names) and makes their media files.
 *
 * Fields: name, aliases, category, primary/secondary muscles, force, level, mechanic,
 * equipment (null where the exercise has none), instructions, optional translations,
 * and `media: true` for the exercises that ship premium images (start, end) and a video (demo).
 */

const ex = (name, category, primary, secondary, force, level, mechanic, equipment, instructions, more = {}) => ({
  name,
  aliases: more.aliases ?? [],
  category,
  primaryMuscle: primary,
  secondaryMuscle: secondary,
  force,
  level,
  mechanic,
  equipment,
  instructions,
  ...(more.translations ? { translations: more.translations } : {}),
  media: more.media === true,
});

export const EXERCISES = [
  ex('Barbell Bench Press', 'STRENGTH', ['CHEST'], ['TRICEPS', 'SHOULDERS'], 'PUSH', 'INTERMEDIATE', 'COMPOUND', 'BARBELL', [
    'Lie on a flat bench with your eyes under the bar and your feet planted on the floor.',
    'Unrack the bar with a grip slightly wider than your shoulders and lower it under control to your lower chest.',
    'Press the bar back up until your elbows are straight, keeping your shoulder blades pinned to the bench.',
  ], {
    aliases: ['Flat Bench'],
    media: true,
    translations: {
      'de-DE': {
        displayName: 'Bankdrücken mit der Langhantel',
        aliases: ['Flachbank'],
        instructions: [
          'Lege dich so auf eine Flachbank, dass deine Augen unter der Stange sind, und stelle die Füße fest auf den Boden.',
          'Hebe die Stange mit einem etwas mehr als schulterbreiten Griff aus und senke sie kontrolliert zur unteren Brust.',
          'Drücke die Stange wieder hoch, bis die Ellbogen gestreckt sind, und halte die Schulterblätter auf der Bank zusammen.',
        ],
      },
      'es-ES': {
        displayName: 'Press de banca con barra',
        aliases: ['Banca plana'],
        instructions: [
          'Túmbate en un banco plano con los ojos bajo la barra y los pies firmes en el suelo.',
          'Saca la barra con un agarre algo más ancho que los hombros y bájala con control hasta la parte baja del pecho.',
          'Empuja la barra hacia arriba hasta estirar los codos, manteniendo las escápulas pegadas al banco.',
        ],
      },
    },
  }),
  ex('Barbell Back Squat', 'STRENGTH', ['QUADRICEPS'], ['GLUTES', 'HAMSTRINGS', 'LOWER_BACK'], 'PUSH', 'INTERMEDIATE', 'COMPOUND', 'BARBELL', [
    'Set the bar across your upper back, brace your trunk and step back from the rack.',
    'Sit your hips down and back until your thighs are at least parallel to the floor, knees tracking over your toes.',
    'Drive through your whole foot to stand up tall again.',
  ], {
    aliases: ['Back Squat'],
    media: true,
    translations: {
      'de-DE': {
        displayName: 'Kniebeuge mit der Langhantel',
        aliases: ['Nackenkniebeuge'],
        instructions: [
          'Lege die Stange auf den oberen Rücken, spanne den Rumpf an und tritt aus dem Ständer zurück.',
          'Senke die Hüfte nach unten und hinten, bis die Oberschenkel mindestens waagerecht sind; die Knie zeigen über die Zehen.',
          'Drücke dich über den ganzen Fuß wieder in den aufrechten Stand.',
        ],
      },
      'es-ES': {
        displayName: 'Sentadilla trasera con barra',
        aliases: ['Sentadilla trasera'],
        instructions: [
          'Coloca la barra sobre la parte alta de la espalda, tensa el tronco y retrocede del soporte.',
          'Baja la cadera hacia abajo y atrás hasta que los muslos queden al menos paralelos al suelo, con las rodillas en línea con los pies.',
          'Empuja con todo el pie para volver a ponerte de pie.',
        ],
      },
    },
  }),
  ex('Conventional Deadlift', 'POWERLIFTING', ['LOWER_BACK'], ['GLUTES', 'HAMSTRINGS', 'TRAPS', 'FOREARMS'], 'PULL', 'INTERMEDIATE', 'COMPOUND', 'BARBELL', [
    'Stand with the bar over the middle of your feet and grip it just outside your legs.',
    'Flatten your back, pull the slack out of the bar and push the floor away until you stand upright.',
    'Return the bar to the floor by hinging at the hips first, then bending the knees.',
  ], {
    media: true,
    translations: {
      'de-DE': {
        displayName: 'Kreuzheben',
        aliases: [],
        instructions: [
          'Stelle dich so hin, dass die Stange über der Fußmitte liegt, und greife sie knapp außerhalb der Beine.',
          'Mache den Rücken gerade, nimm die Spannung auf und drücke den Boden weg, bis du aufrecht stehst.',
          'Bringe die Stange zurück zum Boden, indem du zuerst die Hüfte nach hinten schiebst und dann die Knie beugst.',
        ],
      },
      'es-ES': {
        displayName: 'Peso muerto convencional',
        aliases: [],
        instructions: [
          'Colócate con la barra sobre el centro de los pies y agárrala justo por fuera de las piernas.',
          'Endereza la espalda, tensa la barra y empuja el suelo hasta quedar erguido.',
          'Devuelve la barra al suelo llevando primero la cadera atrás y después flexionando las rodillas.',
        ],
      },
    },
  }),
  ex('Pull-Up', 'STRENGTH', ['LATS'], ['BICEPS', 'MIDDLE_BACK'], 'PULL', 'INTERMEDIATE', 'COMPOUND', 'BODY_ONLY', [
    'Hang from a bar with an overhand grip a little wider than your shoulders.',
    'Pull your elbows down towards your ribs until your chin clears the bar.',
    'Lower yourself slowly to a full hang.',
  ], {
    aliases: ['Overhand Pull-Up'],
    media: true,
    translations: {
      'de-DE': {
        displayName: 'Klimmzug',
        aliases: ['Klimmzug im Obergriff'],
        instructions: [
          'Hänge dich im Obergriff etwas breiter als schulterbreit an eine Stange.',
          'Ziehe die Ellbogen Richtung Rippen, bis das Kinn über der Stange ist.',
          'Lass dich langsam wieder in den vollen Hang ab.',
        ],
      },
      'es-ES': {
        displayName: 'Dominada',
        aliases: ['Dominada en pronación'],
        instructions: [
          'Cuélgate de una barra con agarre prono algo más ancho que los hombros.',
          'Lleva los codos hacia las costillas hasta que la barbilla supere la barra.',
          'Desciende despacio hasta quedar colgado con los brazos estirados.',
        ],
      },
    },
  }),
  ex('Push-Up', 'STRENGTH', ['CHEST'], ['TRICEPS', 'SHOULDERS', 'ABDOMINALS'], 'PUSH', 'BEGINNER', 'COMPOUND', 'BODY_ONLY', [
    'Start in a high plank with your hands under your shoulders and your body in one straight line.',
    'Bend your elbows to lower your chest to just above the floor.',
    'Push back up to straight arms without letting your hips sag.',
  ], {
    aliases: ['Press-Up'],
    media: true,
    translations: {
      'de-DE': {
        displayName: 'Liegestütz',
        aliases: ['Liegestütze'],
        instructions: [
          'Beginne im hohen Stütz, die Hände unter den Schultern und der Körper in einer geraden Linie.',
          'Beuge die Ellbogen und senke die Brust bis knapp über den Boden.',
          'Drücke dich zurück in die gestreckten Arme, ohne die Hüfte durchhängen zu lassen.',
        ],
      },
      'es-ES': {
        displayName: 'Flexión de brazos',
        aliases: ['Lagartija'],
        instructions: [
          'Empieza en plancha alta con las manos bajo los hombros y el cuerpo en línea recta.',
          'Flexiona los codos para bajar el pecho hasta casi tocar el suelo.',
          'Empuja hasta estirar los brazos sin dejar caer la cadera.',
        ],
      },
    },
  }),
  ex('Dumbbell Biceps Curl', 'STRENGTH', ['BICEPS'], ['FOREARMS'], 'PULL', 'BEGINNER', 'ISOLATION', 'DUMBBELL', [
    'Stand tall holding a dumbbell in each hand, palms facing forward.',
    'Curl the weights up by bending only at the elbows.',
    'Lower them slowly until your arms are straight again.',
  ], {
    aliases: ['Dumbbell Curl'],
    media: true,
    translations: {
      'de-DE': {
        displayName: 'Bizepscurl mit Kurzhanteln',
        aliases: ['Kurzhantelcurl'],
        instructions: [
          'Stehe aufrecht mit je einer Kurzhantel in den Händen, die Handflächen zeigen nach vorn.',
          'Beuge nur die Ellbogen und hebe die Gewichte nach oben.',
          'Senke sie langsam ab, bis die Arme wieder gestreckt sind.',
        ],
      },
      'es-ES': {
        displayName: 'Curl de bíceps con mancuernas',
        aliases: ['Curl con mancuernas'],
        instructions: [
          'Ponte de pie con una mancuerna en cada mano y las palmas hacia delante.',
          'Sube las pesas flexionando solo los codos.',
          'Bájalas despacio hasta estirar de nuevo los brazos.',
        ],
      },
    },
  }),
  ex('Kettlebell Swing', 'STRENGTH', ['GLUTES'], ['HAMSTRINGS', 'LOWER_BACK', 'SHOULDERS'], 'PUSH', 'INTERMEDIATE', 'COMPOUND', 'KETTLEBELLS', [
    'Stand with your feet wide and the kettlebell on the floor a step in front of you.',
    'Hike the bell back between your legs, then snap your hips forward so it floats to chest height.',
    'Let it fall back into the next hinge and repeat in a steady rhythm.',
  ], {
    aliases: ['Russian Swing'],
    media: true,
    translations: {
      'de-DE': {
        displayName: 'Kettlebell-Swing',
        aliases: ['Russischer Swing'],
        instructions: [
          'Stelle dich breitbeinig hin, die Kettlebell liegt einen Schritt vor dir auf dem Boden.',
          'Schwinge die Kugel zwischen den Beinen nach hinten und strecke dann explosiv die Hüfte, sodass sie bis auf Brusthöhe steigt.',
          'Lass sie in die nächste Hüftbeuge zurückfallen und wiederhole im gleichmäßigen Rhythmus.',
        ],
      },
      'es-ES': {
        displayName: 'Swing con kettlebell',
        aliases: ['Swing ruso'],
        instructions: [
          'Colócate con los pies separados y la kettlebell en el suelo un paso por delante.',
          'Lleva la pesa hacia atrás entre las piernas y extiende la cadera con fuerza para que suba a la altura del pecho.',
          'Deja que vuelva a la siguiente bisagra de cadera y repite con un ritmo constante.',
        ],
      },
    },
  }),
  ex('Plank', 'STRENGTH', ['ABDOMINALS'], ['SHOULDERS', 'LOWER_BACK'], 'STATIC', 'BEGINNER', null, 'BODY_ONLY', [
    'Rest on your forearms and toes with your elbows under your shoulders.',
    'Squeeze your glutes and brace your stomach so your body forms a straight line.',
    'Hold the position while breathing steadily.',
  ], {
    aliases: ['Front Plank', 'Forearm Plank'],
    media: true,
    translations: {
      'de-DE': {
        displayName: 'Unterarmstütz',
        aliases: ['Planke', 'Brett'],
        instructions: [
          'Stütze dich auf Unterarme und Zehen, die Ellbogen unter den Schultern.',
          'Spanne Gesäß und Bauch an, sodass der Körper eine gerade Linie bildet.',
          'Halte die Position und atme dabei ruhig weiter.',
        ],
      },
      'es-ES': {
        displayName: 'Plancha',
        aliases: ['Plancha frontal', 'Plancha sobre antebrazos'],
        instructions: [
          'Apóyate sobre los antebrazos y las puntas de los pies con los codos bajo los hombros.',
          'Aprieta los glúteos y el abdomen para que el cuerpo forme una línea recta.',
          'Mantén la posición respirando con calma.',
        ],
      },
    },
  }),
  ex('Seated Hamstring Stretch', 'STRETCHING', ['HAMSTRINGS'], ['CALVES', 'LOWER_BACK'], null, 'BEGINNER', null, null, [
    'Sit on the floor with your legs straight out in front of you.',
    'Hinge forward from the hips and reach towards your toes until you feel a stretch behind your thighs.',
    'Hold for about thirty seconds, then sit back up slowly.',
  ], {
    translations: {
      'de-DE': {
        displayName: 'Sitzende Dehnung der hinteren Oberschenkel',
        aliases: [],
        instructions: [
          'Setze dich mit gestreckten Beinen auf den Boden.',
          'Beuge dich aus der Hüfte nach vorn und greife Richtung Zehen, bis du eine Dehnung an der Oberschenkelrückseite spürst.',
          'Halte etwa dreißig Sekunden und richte dich dann langsam wieder auf.',
        ],
      },
      'es-ES': {
        displayName: 'Estiramiento de isquiotibiales sentado',
        aliases: [],
        instructions: [
          'Siéntate en el suelo con las piernas estiradas al frente.',
          'Inclínate desde la cadera y estira las manos hacia los pies hasta notar el estiramiento detrás de los muslos.',
          'Mantén unos treinta segundos y vuelve a incorporarte despacio.',
        ],
      },
    },
  }),
  ex('Foam Roller IT Band Release', 'STRETCHING', ['ABDUCTORS'], ['QUADRICEPS'], 'STATIC', 'INTERMEDIATE', null, 'FOAM_ROLL', [
    'Lie on your side with a foam roller under the outside of your thigh.',
    'Support yourself with your arms and the top leg, and roll slowly between hip and knee.',
    'Pause on tender spots for a few breaths.',
  ], {
    aliases: ['IT Band Roll'],
    translations: {
      'de-DE': {
        displayName: 'Faszienrolle für den Tractus iliotibialis',
        aliases: ['IT-Band-Rollen'],
        instructions: [
          'Lege dich auf die Seite, die Faszienrolle unter der Außenseite des Oberschenkels.',
          'Stütze dich mit den Armen und dem oberen Bein ab und rolle langsam zwischen Hüfte und Knie.',
          'Bleibe an empfindlichen Stellen einige Atemzüge lang.',
        ],
      },
      'es-ES': {
        displayName: 'Liberación de la cintilla iliotibial con rodillo',
        aliases: ['Rodillo para la cintilla'],
        instructions: [
          'Túmbate de lado con el rodillo bajo la parte externa del muslo.',
          'Apóyate con los brazos y la pierna de arriba y rueda despacio entre la cadera y la rodilla.',
          'Detente unas respiraciones en los puntos sensibles.',
        ],
      },
    },
  }),
  ex('Box Jump', 'PLYOMETRICS', ['QUADRICEPS'], ['GLUTES', 'CALVES', 'HAMSTRINGS'], 'PUSH', 'INTERMEDIATE', 'COMPOUND', 'OTHER', [
    'Stand a short step from a sturdy box with your feet hip-width apart.',
    'Swing your arms, dip and jump onto the box, landing softly with bent knees.',
    'Stand up fully on the box, then step back down.',
  ], {
    media: true,
    translations: {
      'de-DE': {
        displayName: 'Kastensprung',
        aliases: ['Box Jump'],
        instructions: [
          'Stelle dich hüftbreit einen kleinen Schritt vor eine stabile Kiste.',
          'Hole mit den Armen Schwung, gehe leicht in die Knie und springe auf die Kiste; lande weich mit gebeugten Knien.',
          'Richte dich auf der Kiste ganz auf und steige wieder herunter.',
        ],
      },
      'es-ES': {
        displayName: 'Salto al cajón',
        aliases: ['Salto a la caja'],
        instructions: [
          'Colócate a un paso corto de un cajón firme con los pies a la anchura de la cadera.',
          'Balancea los brazos, flexiona un poco y salta al cajón, aterrizando suave con las rodillas flexionadas.',
          'Ponte totalmente de pie sobre el cajón y baja caminando.',
        ],
      },
    },
  }),
  ex("Farmer's Walk", 'STRONGMAN', ['FOREARMS'], ['TRAPS', 'ABDOMINALS', 'GLUTES'], 'STATIC', 'INTERMEDIATE', 'COMPOUND', 'OTHER', [
    'Pick up a heavy implement in each hand with a neutral grip.',
    'Stand tall with your shoulders back and walk with short, quick steps.',
    'Set the weights down under control at the end of the course.',
  ], {
    aliases: ["Farmer's Carry", 'Loaded Carry'],
    media: true,
    translations: {
      'de-DE': {
        displayName: 'Farmer’s Walk',
        aliases: ['Bauerngang', 'Lastentragen'],
        instructions: [
          'Nimm in jede Hand ein schweres Gewicht im neutralen Griff.',
          'Stehe aufrecht mit zurückgenommenen Schultern und gehe mit kurzen, schnellen Schritten.',
          'Setze die Gewichte am Ende der Strecke kontrolliert ab.',
        ],
      },
      'es-ES': {
        displayName: 'Paseo del granjero',
        aliases: ['Acarreo del granjero', 'Acarreo con carga'],
        instructions: [
          'Levanta un peso pesado en cada mano con agarre neutro.',
          'Mantente erguido con los hombros atrás y camina con pasos cortos y rápidos.',
          'Deja los pesos en el suelo con control al final del recorrido.',
        ],
      },
    },
  }),
  ex('Power Clean', 'OLYMPIC_WEIGHTLIFTING', ['HAMSTRINGS'], ['QUADRICEPS', 'GLUTES', 'TRAPS', 'CALVES'], 'PULL', 'EXPERT', 'COMPOUND', 'BARBELL', [
    'Start as for a deadlift with a grip just outside your knees.',
    'Lift the bar past your knees, then extend hips, knees and ankles explosively and shrug.',
    'Pull yourself under the bar and catch it on the front of your shoulders in a partial squat.',
  ], {
    media: true,
    translations: {
      'de-DE': {
        displayName: 'Umsetzen',
        aliases: ['Power Clean'],
        instructions: [
          'Beginne wie beim Kreuzheben mit einem Griff knapp außerhalb der Knie.',
          'Hebe die Stange über die Knie, strecke dann Hüfte, Knie und Sprunggelenke explosiv und ziehe die Schultern hoch.',
          'Ziehe dich unter die Stange und fange sie in einer halben Kniebeuge vorn auf den Schultern.',
        ],
      },
      'es-ES': {
        displayName: 'Cargada de potencia',
        aliases: ['Power clean'],
        instructions: [
          'Empieza como en el peso muerto con un agarre justo por fuera de las rodillas.',
          'Sube la barra por encima de las rodillas y extiende de forma explosiva cadera, rodillas y tobillos mientras encoges los hombros.',
          'Métete bajo la barra y recíbela sobre la parte delantera de los hombros en media sentadilla.',
        ],
      },
    },
  }),
  ex('Jump Rope', 'CARDIO', ['CALVES'], ['QUADRICEPS', 'SHOULDERS'], null, 'BEGINNER', null, 'OTHER', [
    'Hold the handles at hip height with the rope behind you.',
    'Turn the rope with your wrists and hop just high enough for it to pass under your feet.',
    'Keep a light, steady rhythm on the balls of your feet.',
  ], {
    aliases: ['Skipping'],
    translations: {
      'de-DE': {
        displayName: 'Seilspringen',
        aliases: ['Seilhüpfen'],
        instructions: [
          'Halte die Griffe auf Hüfthöhe, das Seil liegt hinter dir.',
          'Drehe das Seil aus den Handgelenken und hüpfe gerade so hoch, dass es unter den Füßen durchläuft.',
          'Bleibe locker auf den Fußballen in einem gleichmäßigen Rhythmus.',
        ],
      },
      'es-ES': {
        displayName: 'Saltar a la comba',
        aliases: ['Comba', 'Saltar la cuerda'],
        instructions: [
          'Sujeta las empuñaduras a la altura de la cadera con la cuerda detrás.',
          'Gira la cuerda con las muñecas y salta lo justo para que pase bajo los pies.',
          'Mantén un ritmo ligero y constante sobre las puntas de los pies.',
        ],
      },
    },
  }),
  ex('90/90 Hip Switch', 'STRETCHING', ['GLUTES'], ['ADDUCTORS', 'ABDUCTORS'], null, 'BEGINNER', null, null, [
    'Sit with both knees bent to ninety degrees, one leg in front of you and the other out to the side.',
    'Keeping your feet on the floor, rotate both knees over to the opposite side.',
    'Switch back and forth slowly, pausing at each end.',
  ], {
    aliases: ['90-90 Hip Rotation'],
    translations: {
      'de-DE': {
        displayName: '90/90-Hüftwechsel',
        aliases: ['90-90-Hüftrotation'],
        instructions: [
          'Setze dich mit beiden Knien im rechten Winkel hin, ein Bein vor dir, das andere seitlich.',
          'Lass die Füße am Boden und drehe beide Knie auf die andere Seite.',
          'Wechsle langsam hin und her und halte an jedem Ende kurz inne.',
        ],
      },
      'es-ES': {
        displayName: 'Cambio de cadera 90/90',
        aliases: ['Rotación de cadera 90-90'],
        instructions: [
          'Siéntate con las dos rodillas a noventa grados, una pierna delante y la otra al lado.',
          'Sin despegar los pies del suelo, gira ambas rodillas hacia el lado contrario.',
          'Alterna despacio de un lado a otro con una pausa en cada extremo.',
        ],
      },
    },
  }),
  ex('Cable Triceps Pushdown', 'STRENGTH', ['TRICEPS'], [], 'PUSH', 'BEGINNER', 'ISOLATION', 'CABLE', [
    'Face a high pulley holding a rope or bar attachment, elbows tucked at your sides.',
    'Push the handle down until your arms are straight.',
    'Let it rise slowly without moving your upper arms.',
  ], { aliases: ['Rope Pushdown'], media: true }),
  ex('EZ-Bar Preacher Curl', 'STRENGTH', ['BICEPS'], ['FOREARMS'], 'PULL', 'INTERMEDIATE', 'ISOLATION', 'E_Z_CURL_BAR', [
    'Sit at a preacher bench with the backs of your upper arms flat on the pad.',
    'Curl the bar towards your shoulders.',
    'Lower it slowly until your elbows are almost straight.',
  ]),
  ex('Exercise Ball Crunch', 'STRENGTH', ['ABDOMINALS'], [], 'PULL', 'BEGINNER', 'ISOLATION', 'EXERCISE_BALL', [
    'Sit on an exercise ball and walk your feet out until your lower back rests on it.',
    'Curl your ribs towards your hips to lift your shoulders.',
    'Uncurl slowly over the ball.',
  ], { aliases: ['Swiss Ball Crunch', 'Stability Ball Crunch'] }),
  ex('Medicine Ball Slam', 'PLYOMETRICS', ['ABDOMINALS'], ['LATS', 'SHOULDERS'], 'PUSH', 'BEGINNER', 'COMPOUND', 'MEDICINE_BALL', [
    'Hold a medicine ball overhead with straight arms, rising onto your toes.',
    'Throw it hard into the floor in front of you, bending at the hips.',
    'Catch or pick it up and repeat.',
  ], { aliases: ['Ball Slam'] }),
  ex('Band Pull-Apart', 'STRENGTH', ['SHOULDERS'], ['MIDDLE_BACK', 'TRAPS'], 'PULL', 'BEGINNER', 'ISOLATION', 'BANDS', [
    'Hold a light band in front of your chest with straight arms.',
    'Pull the band apart by moving your hands out to the sides until it touches your chest.',
    'Return slowly to the start.',
  ]),
  ex('Leg Press', 'STRENGTH', ['QUADRICEPS'], ['GLUTES', 'HAMSTRINGS'], 'PUSH', 'BEGINNER', 'COMPOUND', 'MACHINE', [
    'Sit in the machine with your feet shoulder-width apart on the platform.',
    'Release the safety catches and lower the platform until your knees are bent to about ninety degrees.',
    'Press it back up without locking your knees hard.',
  ], { aliases: ['Sled Leg Press'], media: true }),
  ex('Seated Cable Row', 'STRENGTH', ['MIDDLE_BACK'], ['LATS', 'BICEPS'], 'PULL', 'BEGINNER', 'COMPOUND', 'CABLE', [
    'Sit facing a low pulley with your knees slightly bent and your back upright.',
    'Row the handle to your stomach, squeezing your shoulder blades together.',
    'Reach forward again with control.',
  ]),
  ex('Lat Pulldown', 'STRENGTH', ['LATS'], ['BICEPS', 'MIDDLE_BACK'], 'PULL', 'BEGINNER', 'COMPOUND', 'CABLE', [
    'Sit at the machine with your thighs under the pads and take a wide grip on the bar.',
    'Pull the bar down to your upper chest, leading with your elbows.',
    'Let it rise until your arms are straight again.',
  ], {
    translations: {
      'de-DE': {
        displayName: 'Latziehen',
        aliases: [],
        instructions: [
          'Setze dich an das Gerät, die Oberschenkel unter den Polstern, und greife die Stange breit.',
          'Ziehe die Stange mit den Ellbogen voran zur oberen Brust.',
          'Lass sie wieder hoch, bis die Arme gestreckt sind.',
        ],
      },
      'es-ES': {
        displayName: 'Jalón al pecho',
        aliases: [],
        instructions: [
          'Siéntate en la máquina con los muslos bajo los rodillos y agarra la barra con las manos separadas.',
          'Tira de la barra hasta la parte alta del pecho guiando con los codos.',
          'Deja que suba hasta estirar de nuevo los brazos.',
        ],
      },
    },
  }),
  ex('Dumbbell Shoulder Press', 'STRENGTH', ['SHOULDERS'], ['TRICEPS'], 'PUSH', 'BEGINNER', 'COMPOUND', 'DUMBBELL', [
    'Sit or stand with a dumbbell at each shoulder, palms facing forward.',
    'Press the weights overhead until your arms are straight.',
    'Lower them back to your shoulders.',
  ], { aliases: ['Dumbbell Overhead Press'] }),
  ex('Barbell Shrug', 'STRENGTH', ['TRAPS'], ['FOREARMS'], 'PULL', 'BEGINNER', 'ISOLATION', 'BARBELL', [
    'Stand holding a barbell at arm’s length in front of your thighs.',
    'Lift your shoulders straight up towards your ears.',
    'Hold briefly, then lower them.',
  ]),
  ex('Standing Calf Raise', 'STRENGTH', ['CALVES'], [], 'PUSH', 'BEGINNER', 'ISOLATION', 'MACHINE', [
    'Stand on the platform edge with the pads on your shoulders and your heels hanging free.',
    'Rise as high as you can onto the balls of your feet.',
    'Lower your heels below the platform for a full stretch.',
  ]),
  ex('Plate Neck Flexion', 'STRENGTH', ['NECK'], [], 'PULL', 'INTERMEDIATE', 'ISOLATION', 'OTHER', [
    'Lie face up on a bench with your head off the end and a light plate on a folded towel on your forehead.',
    'Bring your chin towards your chest.',
    'Lower your head back slowly, keeping the plate steady with your hands.',
  ]),
  ex('Neck Side Stretch', 'STRETCHING', ['NECK'], ['TRAPS'], null, 'BEGINNER', null, null, [
    'Sit tall and let one ear drop towards the same shoulder.',
    'Rest the hand on that side lightly on your head to deepen the stretch.',
    'Hold, then change sides.',
  ]),
  ex('Hip Adduction Machine', 'STRENGTH', ['ADDUCTORS'], [], 'PULL', 'BEGINNER', 'ISOLATION', 'MACHINE', [
    'Sit in the machine with the pads on the inside of your knees.',
    'Squeeze your legs together.',
    'Let them open slowly.',
  ], { aliases: ['Inner Thigh Machine'] }),
  ex('Hip Abduction Machine', 'STRENGTH', ['ABDUCTORS'], ['GLUTES'], 'PUSH', 'BEGINNER', 'ISOLATION', 'MACHINE', [
    'Sit in the machine with the pads on the outside of your knees.',
    'Push your legs apart as far as is comfortable.',
    'Bring them back together under control.',
  ], { aliases: ['Outer Thigh Machine'] }),
  ex('Copenhagen Plank', 'STRENGTH', ['ADDUCTORS'], ['ABDOMINALS'], 'STATIC', 'EXPERT', null, 'BODY_ONLY', [
    'Lie on your side and rest your top leg on a bench, supporting yourself on one forearm.',
    'Lift your hips until your body is straight, with the lower leg hanging free.',
    'Hold, then repeat on the other side.',
  ], { aliases: ['Copenhagen Adductor Plank'] }),
  ex('Glute Bridge', 'STRENGTH', ['GLUTES'], ['HAMSTRINGS'], 'PUSH', 'BEGINNER', 'ISOLATION', 'BODY_ONLY', [
    'Lie on your back with your knees bent and your feet flat.',
    'Push through your heels to lift your hips until they line up with your knees and shoulders.',
    'Lower slowly.',
  ], { aliases: ['Hip Raise'] }),
  ex('Barbell Hip Thrust', 'STRENGTH', ['GLUTES'], ['HAMSTRINGS', 'QUADRICEPS'], 'PUSH', 'INTERMEDIATE', 'COMPOUND', 'BARBELL', [
    'Sit with your upper back against a bench and a padded bar across your hips.',
    'Drive your hips up until your torso is level with the bench.',
    'Lower the bar until your hips nearly touch the floor.',
  ]),
  ex('Romanian Deadlift', 'STRENGTH', ['HAMSTRINGS'], ['GLUTES', 'LOWER_BACK'], 'PULL', 'INTERMEDIATE', 'COMPOUND', 'BARBELL', [
    'Stand holding a bar at your thighs with soft knees.',
    'Push your hips back and slide the bar down your legs until you feel your hamstrings stretch.',
    'Squeeze your glutes to return upright.',
  ], { aliases: ['RDL'] }),
  ex('Lying Leg Curl', 'STRENGTH', ['HAMSTRINGS'], ['CALVES'], 'PULL', 'BEGINNER', 'ISOLATION', 'MACHINE', [
    'Lie face down on the machine with the pad just above your heels.',
    'Curl your heels towards your glutes.',
    'Lower the pad slowly.',
  ]),
  ex('Back Extension', 'STRENGTH', ['LOWER_BACK'], ['GLUTES', 'HAMSTRINGS'], 'PULL', 'BEGINNER', 'ISOLATION', 'MACHINE', [
    'Set yourself in the bench with the pad at your hips and your ankles locked in.',
    'Lower your torso by bending at the hips.',
    'Raise it until your body is in a straight line, no further.',
  ], { aliases: ['Hyperextension'] }),
  ex('Développé Couché Serré', 'STRENGTH', ['TRICEPS'], ['CHEST', 'SHOULDERS'], 'PUSH', 'INTERMEDIATE', 'COMPOUND', 'BARBELL', [
    'Lie on a flat bench and grip the bar with your hands about shoulder-width apart.',
    'Lower the bar to your lower chest, keeping your elbows close to your sides.',
    'Press it back up by straightening your arms.',
  ], { aliases: ['Close-Grip Bench Press'] }),
  ex('Lying Triceps Extension', 'STRENGTH', ['TRICEPS'], [], 'PUSH', 'INTERMEDIATE', 'ISOLATION', 'E_Z_CURL_BAR', [
    'Lie on a bench holding an EZ bar above your chest with straight arms.',
    'Bend only at the elbows to bring the bar towards your forehead.',
    'Straighten your arms to lift it back.',
  ], { aliases: ['Skull Crusher'] }),
  ex('Wrist Curl', 'STRENGTH', ['FOREARMS'], [], 'PULL', 'BEGINNER', 'ISOLATION', 'DUMBBELL', [
    'Sit with your forearms on your thighs, palms up, a dumbbell in each hand past your knees.',
    'Let the weights roll down to your fingers.',
    'Curl your wrists up as far as they go.',
  ]),
  ex('Hammer Curl', 'STRENGTH', ['BICEPS'], ['FOREARMS'], 'PULL', 'BEGINNER', 'ISOLATION', 'DUMBBELL', [
    'Stand with a dumbbell in each hand, palms facing your thighs.',
    'Curl the weights up without turning your wrists.',
    'Lower them slowly.',
  ]),
  ex('Goblet Squat', 'STRENGTH', ['QUADRICEPS'], ['GLUTES', 'ADDUCTORS'], 'PUSH', 'BEGINNER', 'COMPOUND', 'KETTLEBELLS', [
    'Hold a kettlebell by the horns against your chest.',
    'Squat down between your heels, keeping your chest up.',
    'Stand back up, pushing your knees out.',
  ]),
  ex('Turkish Get-Up', 'STRENGTH', ['SHOULDERS'], ['ABDOMINALS', 'GLUTES'], 'PUSH', 'EXPERT', 'COMPOUND', 'KETTLEBELLS', [
    'Lie on your back holding a kettlebell straight up above one shoulder.',
    'Keeping your eyes on the bell, roll to your elbow, then your hand, bridge and sweep your leg under into a kneel.',
    'Stand up, then reverse each step back to the floor.',
  ], { aliases: ['Get-Up'] }),
  ex('Snatch', 'OLYMPIC_WEIGHTLIFTING', ['QUADRICEPS'], ['SHOULDERS', 'TRAPS', 'GLUTES', 'HAMSTRINGS'], 'PULL', 'EXPERT', 'COMPOUND', 'BARBELL', [
    'Take a wide grip on the bar with your hips low and your back flat.',
    'Lift it past your knees, then extend explosively and pull yourself under it.',
    'Catch it overhead in a deep squat and stand up.',
  ], { aliases: ['Squat Snatch'] }),
  ex('Clean and Jerk', 'OLYMPIC_WEIGHTLIFTING', ['QUADRICEPS'], ['SHOULDERS', 'TRICEPS', 'GLUTES'], 'PUSH', 'EXPERT', 'COMPOUND', 'BARBELL', [
    'Clean the bar from the floor to the front of your shoulders and stand up.',
    'Dip at the knees and drive the bar overhead, splitting your feet front and back.',
    'Bring your feet together with the bar locked out, then lower it.',
  ]),
  ex('Atlas Stone Lift', 'STRONGMAN', ['LOWER_BACK'], ['GLUTES', 'BICEPS', 'FOREARMS'], 'PULL', 'EXPERT', 'COMPOUND', 'OTHER', [
    'Straddle the stone, reach around it and press your forearms into its sides.',
    'Roll it up into your lap.',
    'Stand up explosively and load it onto the platform.',
  ], { aliases: ['Stone Load'] }),
  ex('Tire Flip', 'STRONGMAN', ['QUADRICEPS'], ['GLUTES', 'HAMSTRINGS', 'CHEST'], 'PUSH', 'INTERMEDIATE', 'COMPOUND', 'OTHER', [
    'Squat down at the tire with your chest against it and your fingers under the edge.',
    'Drive forward and up until the tire is upright.',
    'Push it over with your hands and follow it.',
  ], { aliases: ['Tyre Flip'] }),
  ex('Yoke Walk', 'STRONGMAN', ['QUADRICEPS'], ['TRAPS', 'ABDOMINALS'], 'STATIC', 'EXPERT', 'COMPOUND', 'OTHER', [
    'Set the yoke bar across your upper back and stand up with it.',
    'Walk forward with short, fast steps, keeping your trunk braced.',
    'Set it down under control at the line.',
  ]),
  ex('Sumo Deadlift', 'POWERLIFTING', ['HAMSTRINGS'], ['ADDUCTORS', 'GLUTES', 'QUADRICEPS'], 'PULL', 'INTERMEDIATE', 'COMPOUND', 'BARBELL', [
    'Take a wide stance with your toes turned out and grip the bar inside your knees.',
    'Push your knees out and lift by driving the floor apart.',
    'Lock out your hips, then lower the bar along the same path.',
  ]),
  ex('Paused Bench Press', 'POWERLIFTING', ['CHEST'], ['TRICEPS', 'SHOULDERS'], 'PUSH', 'EXPERT', 'COMPOUND', 'BARBELL', [
    'Set up as for a bench press with your feet planted and your back arched.',
    'Lower the bar to your chest and hold it still for a full second.',
    'Press it up without bouncing.',
  ], { aliases: ['Competition Bench'] }),
  ex('Rowing Ergometer', 'CARDIO', ['MIDDLE_BACK'], ['QUADRICEPS', 'LATS', 'BICEPS'], 'PULL', 'BEGINNER', 'COMPOUND', 'MACHINE', [
    'Strap your feet in and hold the handle with straight arms.',
    'Push with your legs, then lean back slightly and pull the handle to your ribs.',
    'Return in the reverse order: arms, body, then legs.',
  ], { aliases: ['Indoor Rowing'] }),
  ex('Stationary Bike', 'CARDIO', ['QUADRICEPS'], ['HAMSTRINGS', 'CALVES'], 'PUSH', null, null, 'MACHINE', [
    'Set the saddle so your knee stays slightly bent at the bottom of each stroke.',
    'Pedal at a steady cadence against a resistance you can keep up.',
  ], { aliases: ['Exercise Bike'] }),
  ex('Burpee', 'CARDIO', ['QUADRICEPS'], ['CHEST', 'SHOULDERS'], 'PUSH', 'INTERMEDIATE', 'COMPOUND', 'BODY_ONLY', [
    'From standing, squat and put your hands on the floor.',
    'Jump your feet back to a plank, then jump them back in.',
    'Leap up with your arms overhead.',
  ]),
  ex('Lateral Bound', 'PLYOMETRICS', ['ABDUCTORS'], ['GLUTES', 'QUADRICEPS'], 'PUSH', 'INTERMEDIATE', 'COMPOUND', 'BODY_ONLY', [
    'Stand on one leg with a slight bend in the knee.',
    'Jump sideways as far as you can and land on the other foot.',
    'Stick the landing, then bound back.',
  ], { aliases: ['Skater Jump'] }),
  ex('Medicine Ball Chest Pass', 'PLYOMETRICS', ['CHEST'], ['TRICEPS', 'SHOULDERS'], 'PUSH', 'BEGINNER', 'COMPOUND', 'MEDICINE_BALL', [
    'Face a wall or partner holding a medicine ball at your chest.',
    'Throw it forward as hard as you can by straightening your arms.',
    'Catch it on the rebound and go again.',
  ]),
  ex('Cat-Cow Stretch', 'STRETCHING', ['LOWER_BACK'], ['ABDOMINALS'], null, null, null, null, [
    'Kneel on all fours with your hands under your shoulders.',
    'Round your back up towards the ceiling, tucking your chin.',
    'Then let your stomach sink and lift your chest and tailbone.',
  ], { aliases: ['Cat Camel'] }),
  ex('Doorway Chest Stretch', 'STRETCHING', ['CHEST'], ['SHOULDERS'], 'STATIC', 'BEGINNER', null, null, [
    'Stand in a doorway with your forearms on the frame, elbows at shoulder height.',
    'Step one foot through until you feel a stretch across your chest.',
    'Hold and breathe.',
  ]),
  ex('Kneeling Hip Flexor Stretch', 'STRETCHING', ['QUADRICEPS'], [], 'STATIC', 'BEGINNER', null, null, [
    'Kneel on one knee with the other foot flat in front of you.',
    'Tuck your pelvis under and shift forward until the front of the back hip stretches.',
    'Hold, then switch legs.',
  ]),
  ex('Foam Roller Upper Back', 'STRETCHING', ['MIDDLE_BACK'], ['TRAPS'], null, 'BEGINNER', null, 'FOAM_ROLL', [
    'Lie with a foam roller across your upper back and your hands behind your head.',
    'Lift your hips slightly and roll between your shoulder blades and mid-back.',
  ], { aliases: ['Thoracic Roll'] }),
  ex('Banded Lat Stretch', 'STRETCHING', ['LATS'], [], null, 'BEGINNER', null, 'BANDS', [
    'Loop a band around a high anchor and hold the other end with one hand.',
    'Step back and sit your hips away so your arm is pulled overhead.',
    'Hold, then change sides.',
  ]),
  ex('Face Pull', 'STRENGTH', ['SHOULDERS'], ['TRAPS', 'MIDDLE_BACK'], 'PULL', 'INTERMEDIATE', 'ISOLATION', 'CABLE', [
    'Set a rope on a high pulley and hold it with your thumbs towards you.',
    'Pull the rope towards your face, spreading the ends past your ears.',
    'Return slowly.',
  ]),
  ex('Cable Crossover', 'STRENGTH', ['CHEST'], ['SHOULDERS'], 'PUSH', 'INTERMEDIATE', 'ISOLATION', 'CABLE', [
    'Stand between two high pulleys holding a handle in each hand.',
    'Bring your hands together in front of your hips in a wide arc.',
    'Open your arms again under control.',
  ], { aliases: ['Cable Fly'] }),
  ex('Exercise Ball Hamstring Curl', 'STRENGTH', ['HAMSTRINGS'], ['GLUTES', 'CALVES'], 'PULL', 'INTERMEDIATE', 'ISOLATION', 'EXERCISE_BALL', [
    'Lie on your back with your heels on an exercise ball and lift your hips.',
    'Roll the ball towards you by bending your knees.',
    'Roll it back out while keeping your hips up.',
  ]),
  ex('Dead Bug', 'STRENGTH', ['ABDOMINALS'], [], 'STATIC', 'BEGINNER', 'ISOLATION', 'BODY_ONLY', [
    'Lie on your back with your arms pointing up and your knees over your hips.',
    'Lower one arm and the opposite leg towards the floor, keeping your back flat.',
    'Return and switch sides.',
  ]),
  ex('One-Arm Dumbbell Row', 'STRENGTH', ['MIDDLE_BACK'], ['LATS', 'BICEPS'], 'PULL', 'BEGINNER', 'COMPOUND', 'DUMBBELL', [
    'Put one knee and hand on a bench and hold a dumbbell in the other hand.',
    'Row the dumbbell to your hip.',
    'Lower it to a full stretch.',
  ], { aliases: ['Dumbbell Row'] }),
  ex('Chin-Up', 'STRENGTH', ['LATS'], ['BICEPS'], 'PULL', 'BEGINNER', 'COMPOUND', 'BODY_ONLY', [
    'Hang from a bar with your palms facing you, hands shoulder-width apart.',
    'Pull up until your chin is over the bar.',
    'Lower yourself all the way down.',
  ]),
  ex('Parallel Bar Dip', 'STRENGTH', ['TRICEPS'], ['CHEST', 'SHOULDERS'], 'PUSH', 'INTERMEDIATE', 'COMPOUND', 'BODY_ONLY', [
    'Support yourself on parallel bars with straight arms.',
    'Bend your elbows to lower your body until your shoulders are just below your elbows.',
    'Press back up.',
  ], { aliases: ['Dip'] }),
  ex('Zercher Good Morning', 'STRENGTH', ['HAMSTRINGS'], ['LOWER_BACK', 'GLUTES'], 'PULL', 'EXPERT', 'COMPOUND', 'BARBELL', [
    'Hold the bar in the crook of your elbows, close to your body.',
    'Hinge forward at the hips with soft knees until your torso is nearly level.',
    'Drive your hips forward to stand up.',
  ]),
];
