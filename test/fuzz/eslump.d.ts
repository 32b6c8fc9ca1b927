// eslump ships no types; the suite uses its one API.
declare module 'eslump' {
  export interface GenerateOptions {
    sourceType?: 'module' | 'script';
    maxDepth?: number;
    comments?: boolean;
    whitespace?: boolean;
  }
  export function generateRandomJS(options?: GenerateOptions): string;
}
