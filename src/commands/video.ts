/** `exercises video <id-or-name> [name...]`: premium videos of one exercise (see shared/media-single.ts). */
import type { RegisterCommand } from './shared/register.js';
import { type SingleMediaOptions, registerSingleMedia } from './shared/media-single.js';

export const register: RegisterCommand<SingleMediaOptions> = (program, context, runF) => registerSingleMedia(program, context, 'video', runF);
