// Types of markdown-it-emoji 3 (the package ships none): the plugin with every GitHub shortcode.
declare module 'markdown-it-emoji' {
  import type { MarkdownIt } from 'markdown-it';

  /** The plugin's options: extra or replacing definitions, `:)`-style shortcuts, a whitelist of names. */
  export interface EmojiOptions {
    defs?: Record<string, string>;
    shortcuts?: Record<string, string | string[]>;
    enabled?: string[];
  }

  /** Every emoji of GitHub's list, as `emoji` tokens (`markup` = the name, `content` = the character). */
  export const full: (md: MarkdownIt, options?: EmojiOptions) => void;
}
