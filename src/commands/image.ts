/** `exercises image <id-or-name> [name...]`: premium images of one exercise (see shared/media-single.ts). */
import type { RegisterCommand } from './shared/register.js';
import { type SingleMediaOptions, registerSingleMedia } from './shared/media-single.js';

export const register: RegisterCommand<SingleMediaOptions> = (program, context, runF) => registerSingleMedia(program, context, 'image', runF);
