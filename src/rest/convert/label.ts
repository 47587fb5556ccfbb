import type { LabelWithOwner } from '../../services/label/label.ts';
import type { Label } from '../structs/label.ts';

/** Gitea convert.ToLabel: colour without `#`; url of the organization label (repository labels: later). */
export function toApiLabel(label: LabelWithOwner, rootUrl: string): Label {
  return {
    id: label.id,
    name: label.name,
    exclusive: label.exclusive,
    is_archived: label.archivedAt !== null,
    color: label.color.replace(/^#+/, ''),
    description: label.description,
    url: label.org ? `${rootUrl}api/v1/orgs/${encodeURIComponent(label.org.name)}/labels/${label.id}` : '',
  };
}

/** A list of labels. */
export function toApiLabelList(labels: readonly LabelWithOwner[], rootUrl: string): Label[] {
  return labels.map((l) => toApiLabel(l, rootUrl));
}
