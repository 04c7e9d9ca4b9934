// antd's Dropdown (with its Menu) as a chunk of its own, and the Tag the account menu shows
// in it: see LazyDropdown.
export { Dropdown, Tag } from 'antd';
