// English strings of the admin's items page. Keys are nested objects; values may hold {name} placeholders.
export default {} as const;
