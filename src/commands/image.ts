/** `exercises image <id-or-name> [name...]`: premium images of one exercise (see shared/media-single.ts). */
import type { RegisterCommand } from './index.js';
import { registerSingleMedia } from './shared/media-single.js';

export const register: RegisterCommand = (program, context) => registerSingleMedia(program, context, 'image');
