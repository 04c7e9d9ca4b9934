import type { SectionTexts } from '../../texts';

const ACCOUNT_TYPES: Record<number, string> = { 1: '标准', 2: '专业', 3: 'VIP' };

/** 简体中文: the profile page. */
export const profile: SectionTexts<'profile'> = {
  profile: {
    loginFirst: '请先登录',
    login: '登录',
    returnToMain: '返回主页',
    unknownUser: '未知用户',
    userIdChannel: '用户 ID | 渠道',
    basicInfo: '基本信息',
    tradingAccounts: '交易账户',
    nickname: '昵称',
    phone: '电话',
    email: '邮箱',
    country: '国家/地区',
    auditStatus: '审核状态',
    approved: '已通过',
    notApproved: '未通过',
    auditRemarks: '审核备注',
    none: '无',
    auditTime: '审核时间',
    creationTime: '创建时间',
    lastUpdate: '最后更新',
    notSet: '未设置',
    edit: '编辑',
    save: '保存',
    cancel: '取消',
    nicknameRequired: '请输入昵称',
    emailInvalid: '请输入有效的邮箱格式',
    updated: '个人信息更新成功',
    accountName: '账户名称',
    accountId: '账户 ID',
    level: '等级',
    type: '类型',
    typeName: (type: number) => ACCOUNT_TYPES[type] ?? `类型 ${type}`,
    current: '当前',
    noAccounts: '暂无交易账户',
  },
};
