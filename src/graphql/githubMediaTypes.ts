// GitHub's clients ask its GraphQL API for GitHub's own media types (`gh` sends
// `Accept: application/vnd.github.merge-info-preview+json, application/vnd.github.nebula-preview`), which are JSON.

const GITHUB_MEDIA_TYPE = /^application\/vnd\.github(\.[^;+]*)?(\+json)?$/i;

/**
 * The Accept header with GitHub's media types (`application/vnd.github.*+json`, `application/vnd.github.*-preview`)
 * read as `application/json`; null when it names none (the header is used as sent).
 */
export function acceptGithubMediaTypes(accept: string | undefined): string | null {
  if (!accept || !/vnd\.github/i.test(accept)) return null;
  const types = accept.split(',').map((part) => {
    const [type = '', ...params] = part.trim().split(';');
    return GITHUB_MEDIA_TYPE.test(type.trim()) ? ['application/json', ...params].join(';') : part.trim();
  });
  return [...new Set(types)].join(', ');
}
