/** Script text the participant and console pages share, inlined into each page's own script. */

/** `base64Of(file)`: a chosen file's bytes as base64, for a JSON body. */
export const FILE_AS_BASE64 = `const base64Of = (file) => new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).split(',')[1]);
    reader.onerror = reject;
    reader.readAsDataURL(file);
  });`;
