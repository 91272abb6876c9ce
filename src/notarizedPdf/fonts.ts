import fs from 'node:fs';

/** The faces the notarized PDF is written in: DejaVu covers every name a person may have. */
export const FONTS = {
  regular: fs.readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
  bold: fs.readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
  signature: fs.readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSerif-Italic.ttf')),
};
