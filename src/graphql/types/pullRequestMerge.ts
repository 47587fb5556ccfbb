/** GraphQL types and mutations of this feature (filled in by the feature that owns this file). */
export {};
