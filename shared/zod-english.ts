import { config } from 'zod/v4/core';
import en from 'zod/v4/locales/en.js';

// zod's English messages ("Too small: expected number to be >=1"). Classic zod sets them as it
// loads; zod/mini does not, so a process that checks mini schemas without ever loading classic
// zod (`mewbo tool read_file`, cli/zod-jitless.ts) would say only "Invalid input". Imported for
// its effect by whoever turns a mini schema's issues into words. Through zod's core, whose
// configuration classic zod and zod/mini share.
config(en());
