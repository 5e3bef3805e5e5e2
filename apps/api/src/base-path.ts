/** Every endpoint of the interface lives under this path; `1.0` is the interface version. */
export const BASE_PATH = '/service-api/1.0';
