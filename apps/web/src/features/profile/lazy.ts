// The profile feature's parts that load on demand (loaders only).
export const loadProfilePage = () => import('./ProfilePage');
