// English strings of the admin's home page. Keys are nested objects; values may hold {name} placeholders.
export default {} as const;
