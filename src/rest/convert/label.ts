import type { LabelWithOwner } from '../../services/label/label.ts';
import type { RepoLabel } from '../../services/label/repoLabel.ts';
import type { Label } from '../structs/label.ts';

/** Gitea convert.ToLabel: colour without `#`; url under the owning organization or repository. */
export function toApiLabel(label: LabelWithOwner | RepoLabel, rootUrl: string): Label {
  return {
    id: label.id,
    name: label.name,
    exclusive: label.exclusive,
    is_archived: label.archivedAt !== null,
    color: label.color.replace(/^#+/, ''),
    description: label.description,
    url: label.org
      ? `${rootUrl}api/v1/orgs/${encodeURIComponent(label.org.name)}/labels/${label.id}`
      : 'repo' in label && label.repo
        ? `${rootUrl}api/v1/repos/${encodeURIComponent(label.repo.ownerName)}/${encodeURIComponent(label.repo.name)}/labels/${label.id}`
        : '',
  };
}

/** A list of labels. */
export function toApiLabelList(labels: readonly (LabelWithOwner | RepoLabel)[], rootUrl: string): Label[] {
  return labels.map((l) => toApiLabel(l, rootUrl));
}
