/** A CreateLabelOption / EditLabelOption body as the label service's input (org and repository labels alike). */
export function labelFields<
  T extends {
    name?: string | undefined;
    color?: string | undefined;
    description?: string | undefined;
    exclusive?: boolean | undefined;
    is_archived?: boolean | undefined;
  },
>(body: T): { name: T['name']; color: T['color']; description: T['description']; exclusive: T['exclusive']; isArchived: T['is_archived'] } {
  return { name: body.name, color: body.color, description: body.description, exclusive: body.exclusive, isArchived: body.is_archived };
}
